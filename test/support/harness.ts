import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import type { Test } from 'tap';
import type { AppraisalModel } from '../../src/appraisal/appraisal.js';
import { Bus } from '../../src/bus/bus.js';
import type { BusEvent } from '../../src/bus/events.js';
import { loadChatConfig } from '../../src/config/chat-config.js';
import type { ConversationStore } from '../../src/conversations/conversation-store.js';
import { openEmbeddedStore } from '../../src/embedded/embedded-store.js';
import { buildApp, type AppOptions } from '../../src/http/app.js';
import { inProcessAdapters } from '../../src/adapters/in-process-adapters.js';
import type { MoodLedger } from '../../src/mood-ledger/mood-ledger.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { createLogger } from '../../src/runtime/logger.js';
import { seededRandom } from '../../src/runtime/random.js';
import { createChatSystem, type ChatSystem } from '../../src/system/chat-system.js';
import { MOCKED_BASE_URL } from '../../testkit/provider-nock.js';
import { healthy, providerStandIn } from '../../testkit/provider-stand-in.js';
import { capturedLogger } from './captured-logger.js';
import { CookieJar } from './cookie-jar.js';
import { FakeSystem } from './fake-system.js';
import { DEFAULT_MAX_SESSION_BYTES } from '../../src/config/defaults.js';
import { testDir } from './test-dir.js';

/** The fixed clock's time: every harness starts here. */
export const START = '2026-11-21T10:00:00.000Z';

/** The real actor system (`system: 'real'`): what it is built from. */
export interface RealSystemOptions {
  readonly system: 'real';
  /** The settings, as the environment gives them (over a temporary EMOTIONS_FILE and the nock provider). */
  readonly env?: Record<string, string>;
  /** Where emotions.json lives (default: a new test directory). */
  readonly dir?: string;
  /** The provider's transport (a `providerStandIn`'s fetch); without it, calls go to MOCKED_BASE_URL (mock it with nock). */
  readonly fetch?: typeof globalThis.fetch;
  /** Whether debug lines are captured (default true); false for tests that send thousands of requests. */
  readonly debug?: boolean;
  /** The mood ledger (default: a new in-process one); tests pass one that refuses or delivers late. */
  readonly ledger?: MoodLedger;
  /** The visitors' conversations (default: the in-process store); tests pass one that fails. */
  readonly conversations?: ConversationStore;
  /** The dialogue's retries (default 0: a failure counts at once). */
  readonly dialogueRetries?: number;
  /** The appraisal's weights (default: the shipped ones); `neutralReader()` reads every message as neutral. */
  readonly appraisalModel?: AppraisalModel;
}

/** The real app over the real actor system, listening on 127.0.0.1 with one visitor (`served: true`). */
export interface ServedOptions extends Omit<RealSystemOptions, 'ledger' | 'conversations'> {
  readonly served: true;
  /** Whether the system starts (default true); a test of the not-ready state leaves it. */
  readonly start?: boolean;
  /** The event streams' heartbeat period (default the app's 15 s). */
  readonly heartbeatMs?: number;
  /** How often the page polls /api/avatar (default 1 s, as docs/specification.md#the-page says). */
  readonly pollIntervalMs?: number;
  /** Keep the mood and conversations in the embedded store, as `hub serve` alone does (default: in process). */
  readonly embedded?: boolean;
}

/** The real app over a bus the fake system answers (`system: 'fake'`), for the routes in isolation. */
export interface FakeSystemOptions {
  readonly system: 'fake';
  /** Over the harness's tiny timeouts and its captured log. */
  readonly app?: Partial<AppOptions>;
  /** Whether the captured logger writes debug lines (request lines among them); default true. */
  readonly debugLines?: boolean;
}

export interface RealHarness {
  readonly system: ChatSystem;
  readonly bus: Bus;
  readonly file: string;
  /** Every event on the bus so far. */
  readonly events: BusEvent[];
  /** The mood ledger the system was given (in-process unless the caller passed one). */
  readonly ledger: MoodLedger;
  readonly logs: Record<string, unknown>[];
  /** Exit codes the system asked for. */
  readonly exits: number[];
  /** Resolves with the exit code the first time the system calls exit. */
  readonly exited: Promise<number>;
  /** Moves the virtual clock and scheduler on: drift ticks and coalesced writes happen here. */
  advance(ms: number): void;
}

export interface ServedHarness extends RealHarness {
  readonly app: FastifyInstance;
  readonly address: string;
  readonly visitor: CookieJar;
}

export interface FakeHarness {
  readonly app: FastifyInstance;
  readonly bus: Bus;
  readonly system: FakeSystem;
  /** Every log line the app wrote, parsed. */
  readonly logs: () => Array<Record<string, unknown>>;
  /** The log as written, before parsing (which would hide a repeated key). */
  readonly logText: () => string;
}

/**
 * The one way the tests build the chat service's inside: the real actor system on a temporary
 * directory with a fixed clock, a seeded random source, a virtual-time scheduler, a captured logger
 * and an exit that records instead of ending the process (`system: 'real'`), with the real app over it
 * when `served`; or the real app over the fake system (`system: 'fake'`).
 */
export function harness(t: Test, options: ServedOptions & { readonly system: 'real' }): Promise<ServedHarness>;
export function harness(t: Test, options: RealSystemOptions): RealHarness;
export function harness(t: { teardown(fn: () => unknown): void }, options: FakeSystemOptions): Promise<FakeHarness>;
export function harness(
  t: Test | { teardown(fn: () => unknown): void },
  options: RealSystemOptions | (ServedOptions & { readonly system: 'real' }) | FakeSystemOptions,
): RealHarness | Promise<ServedHarness> | Promise<FakeHarness> {
  if (options.system === 'fake') return overFakeSystem(t, options);
  // Only the fake system's overload takes less than a tap Test.
  if ('served' in options) return served(t as Test, options);
  return realSystem(t as Test, options);
}

function realSystem(
  t: Test,
  {
    env = {},
    dir = testDir(t),
    fetch,
    debug = true,
    ledger: givenLedger,
    conversations,
    dialogueRetries = 0,
    appraisalModel,
  }: RealSystemOptions,
): RealHarness {
  const clock = fixedClock(START);
  const bus = new Bus({ clock });
  const events: BusEvent[] = [];
  bus.all().subscribe((event) => events.push(event));
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger({ destination: { write: (line: string) => logs.push(JSON.parse(line)) }, debug });
  const exits: number[] = [];
  let onExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (onExit = resolve));
  const scheduler = new VirtualTimeScheduler(VirtualAction, 0);
  const file = join(dir, 'emotions.json');
  const config = loadChatConfig({ EMOTIONS_FILE: file, LLM_BASE_URL: MOCKED_BASE_URL, LLM_TIMEOUT_MS: '5000', ...env });
  const local = inProcessAdapters(config, { clock, logger });
  const ledger = givenLedger ?? local.system.ledger;
  const system = createChatSystem({
    bus,
    config,
    clock,
    random: seededRandom(42),
    logger,
    exit: (code) => {
      exits.push(code);
      onExit(code);
    },
    scheduler,
    dialogueRetries,
    ...(fetch ? { fetch } : {}),
    inspect: () => undefined,
    ...local.system,
    ledger,
    ...(conversations ? { conversations } : {}),
    ...(appraisalModel ? { loadAppraisalModel: async () => appraisalModel } : {}),
  });
  // As the composition root does: the adapters close once the system has stopped.
  t.teardown(async () => {
    await system.stop();
    await local.close();
  });
  let now = 0;
  return {
    system,
    bus,
    file,
    events,
    ledger,
    logs,
    exits,
    exited,
    advance: (ms) => {
      now += ms;
      clock.advance(ms);
      scheduler.maxFrames = now;
      scheduler.flush();
    },
  };
}

async function served(
  t: Test,
  { env = {}, start = true, heartbeatMs, pollIntervalMs, embedded = false, served: _, ...options }: ServedOptions,
): Promise<ServedHarness> {
  const settings = { LLM_API_KEY: 'sk-test-stream', LLM_BASE_URL: MOCKED_BASE_URL, ...env };
  const dir = options.dir ?? testDir(t);
  const store = embedded
    ? openEmbeddedStore(join(dir, 'emotions.json'), {
        maxSessions: 100,
        idleMs: 3_600_000,
        maxBytes: DEFAULT_MAX_SESSION_BYTES,
        clock: fixedClock(START),
      })
    : undefined;
  const h = realSystem(t, {
    ...options,
    env: settings,
    dir,
    ...(store ? { ledger: store.ledger, conversations: store.conversations } : {}),
  });
  // The store closes once the system has stopped (its last commit is in by then).
  if (store)
    t.teardown(async () => {
      await h.system.stop();
      await store.close();
    });
  const app = await buildApp({
    bus: h.bus,
    clock: fixedClock(START),
    logger: createLogger({ debug: false, destination: { write: () => undefined } }),
    config: loadChatConfig(settings),
    ...(heartbeatMs === undefined ? {} : { heartbeatMs }),
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  if (start) {
    h.system.start();
    t.equal(await h.system.settled(), 'ready');
  }
  return { ...h, app, address, visitor: new CookieJar(address) };
}

async function overFakeSystem(
  t: { teardown(fn: () => unknown): void },
  { app: overrides = {}, debugLines = true }: FakeSystemOptions,
): Promise<FakeHarness> {
  const bus = new Bus({ clock: fixedClock(START) });
  const log = capturedLogger({ debug: debugLines });
  const app = await buildApp({
    bus,
    clock: fixedClock(START),
    logger: log.logger,
    config: { maxMessageLength: 50, providerTimeoutMs: 50 },
    timeouts: { statusMs: 30, chatMs: 60 },
    ...overrides,
  });
  // After the app, as the service creates the system after it: the app hears its phase.
  const system = new FakeSystem(bus);
  t.teardown(async () => {
    await app.close();
    system.stop();
    bus.close();
  });
  return { app, bus, system, logs: log.lines, logText: log.text };
}

/**
 * The served harness, ready, for `app.inject`: the provider is a healthy stand-in saying
 * "I hear you.", and virtual time moves only when the test advances it, so the drift never ticks
 * and the emotions move only when a chat is accepted. `calls` are the provider calls made.
 */
export async function readyApp(t: Test, env: Record<string, string> = {}, options: Pick<RealSystemOptions, 'appraisalModel' | 'dir'> = {}) {
  const provider = providerStandIn(healthy('I hear you.'));
  const h = await harness(t, {
    system: 'real',
    served: true,
    env: { LLM_API_KEY: 'sk-test-robust', LLM_TIMEOUT_MS: '30000', ...env },
    fetch: provider.fetch,
    debug: false,
    ...options,
  });
  return { ...h, calls: provider.calls };
}

/** A POST /api/chat with a JSON body. */
export function chat(app: FastifyInstance, payload: unknown) {
  return app.inject({ method: 'POST', url: '/api/chat', payload: payload as object });
}
