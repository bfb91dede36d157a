// The steps the chat system's tests (test/system/) share: a ready system over the nock provider,
// a chat and a status request on its bus, and a mood ledger with some calls replaced.
import type nock from 'nock';
import type { Test } from 'tap';
import type { Bus } from '../../src/bus/bus.js';
import type { MoodLedger } from '../../src/mood-ledger/mood-ledger.js';
import { mockedProvider } from '../../testkit/provider-nock.js';
import { modelList } from '../../testkit/provider-wire.js';
import { harness, type RealSystemOptions } from './harness.js';

export const KEY = { LLM_API_KEY: 'sk-test-primary' };

/** The provider lists the default model (`times` listings). */
export function modelsOk(times = 1): nock.Scope {
  return mockedProvider().models().times(times).reply(200, modelList());
}

export const chat = (bus: Bus, message: string) =>
  bus.request({ type: 'chat.requested', session: 'visitor-a', message }, ['chat.replied', 'chat.rejected'], 10_000);

export const status = (bus: Bus) => bus.request({ type: 'status.requested' }, 'status.reported', 50);

/** A system past startup with a valid key (one models call mocked). */
export async function ready(
  t: Test,
  env: Record<string, string> = {},
  dir?: string,
  options: Omit<RealSystemOptions, 'system' | 'env' | 'dir'> = {},
) {
  modelsOk();
  const h = harness(t, { system: 'real', env: { ...KEY, ...env }, dir, ...options });
  h.system.start();
  t.equal(await h.system.settled(), 'ready');
  return h;
}

/** `local` with some of its calls replaced: a ledger that refuses, or delivers later. */
export function withLedger<T extends object>(local: MoodLedger, overrides: T): MoodLedger & T {
  return {
    startFrom: (state) => local.startFrom(state),
    append: (change, exchange) => local.append(change, exchange),
    subscribe: (apply) => local.subscribe(apply),
    close: () => local.close(),
    ...overrides,
  };
}
