import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { createChatSystem } from '../../src/actors/chat-system.js';
import { Bus } from '../../src/bus/bus.js';
import { loadChatConfig } from '../../src/config/chat-config.js';
import { buildApp } from '../../src/http/app.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { createLogger } from '../../src/runtime/logger.js';
import { seededRandom } from '../../src/runtime/random.js';
import { START, completion, modelList } from '../support/chat-system-harness.js';

export interface ReadyApp {
  readonly app: FastifyInstance;
  /** Provider calls made so far, as `METHOD /path`. */
  readonly calls: string[];
  /** Exit codes the system asked for (none expected). */
  readonly exits: number[];
}

/**
 * The real HTTP app over the real actor system, ready, for `app.inject`: the
 * provider is an injected fetch that counts its calls and always answers well,
 * the clock is fixed and the drift never ticks, so the emotions move only
 * when a chat is accepted.
 */
export async function readyApp(t: Test, env: Record<string, string> = {}): Promise<ReadyApp> {
  const calls: string[] = [];
  const exits: number[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    const body = url.pathname.endsWith('/models') ? modelList() : completion('I hear you.');
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const clock = fixedClock(START);
  const bus = new Bus({ clock });
  const logger = createLogger({ debug: false, destination: { write: () => undefined } });
  const config = loadChatConfig({
    LLM_API_KEY: 'sk-test-robust',
    LLM_BASE_URL: 'http://llm.invalid/v1',
    EMOTIONS_FILE: `${t.testdir()}/emotions.json`,
    DRIFT_INTERVAL_MS: '86400000',
    ...env,
  });
  const system = createChatSystem({
    bus,
    config,
    clock,
    random: seededRandom(3),
    logger,
    exit: (code) => exits.push(code),
    dialogueRetries: 0,
    fetch,
    inspect: () => undefined,
  });
  const app = await buildApp({ bus, clock, logger, config });
  t.teardown(async () => {
    await app.close();
    await system.stop();
    bus.close();
  });
  system.start();
  if ((await system.settled()) !== 'ready') throw new Error('the chat system did not become ready');
  return { app, calls, exits };
}
