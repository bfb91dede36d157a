import type { FastifyInstance } from 'fastify';
import type { AppraisalModel } from '../../src/appraisal/appraisal.js';
import { join } from 'node:path';
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import type { Test } from 'tap';
import { createChatSystem, type ChatSystem } from '../../src/system/chat-system.js';
import { Bus } from '../../src/bus/bus.js';
import type { BusEvent, MoodChanged } from '../../src/bus/events.js';
import { DEFAULT_MODEL, loadChatConfig } from '../../src/config/chat-config.js';
import { buildApp } from '../../src/http/app.js';
import { inProcessAdapters } from '../../src/adapters/in-process-adapters.js';
import type { MoodLedger } from '../../src/mood-ledger/mood-ledger.js';
import type { ConversationStore } from '../../src/conversations/conversation-store.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { createLogger } from '../../src/runtime/logger.js';
import { seededRandom } from '../../src/runtime/random.js';

export const BASE_URL = 'http://llm.test/v1';
export const START = '2026-11-21T10:00:00.000Z';

export interface Harness {
  readonly system: ChatSystem;
  readonly bus: Bus;
  readonly file: string;
  readonly events: BusEvent[];
  /** The mood ledger the system was given (the in-process one unless the caller passed one). */
  readonly ledger: MoodLedger;
  readonly logs: Record<string, unknown>[];
  readonly exits: number[];
  /** Resolves with the exit code the first time the system calls exit. */
  readonly exited: Promise<number>;
  /** Moves the virtual clock and scheduler on: drift ticks and coalesced writes happen here. */
  advance(ms: number): void;
}

export interface HarnessOptions {
  /** The provider's transport (see `standInProvider`); without it, calls go to BASE_URL (mock it with nock). */
  readonly fetch?: typeof globalThis.fetch;
  /** Whether debug lines are captured (default true); false for tests that send thousands of requests. */
  readonly debug?: boolean;
  /** The mood ledger (default: the in-process adapters' own); tests pass one that refuses or delivers late. */
  readonly ledger?: MoodLedger;
  /** The visitors' conversations (default: the in-process store); tests pass one that fails. */
  readonly conversations?: ConversationStore;
  /** The dialogue's retries (default 0: a failure counts at once). */
  readonly dialogueRetries?: number;
  /** The appraisal's weights (default: the shipped ones); `neutralReader()` reads every message as neutral. */
  readonly appraisalModel?: AppraisalModel;
}

/**
 * A chat system on a temporary directory with a fixed clock, a seeded random source, a
 * virtual-time scheduler, a captured logger and an exit that records instead of ending the process.
 * This is the one way the tests build the real actor system; `readyApp` puts the HTTP app over it.
 */
export function harness(
  t: Test,
  env: Record<string, string> = {},
  dir: string = t.testdir(),
  { fetch, debug = true, ledger: givenLedger, conversations, dialogueRetries = 0, appraisalModel }: HarnessOptions = {},
): Harness {
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
  const config = loadChatConfig({ EMOTIONS_FILE: file, LLM_BASE_URL: BASE_URL, LLM_TIMEOUT_MS: '5000', ...env });
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

export interface StandInProvider {
  readonly fetch: typeof globalThis.fetch;
  /** Provider calls made so far, as `METHOD /path`. */
  readonly calls: string[];
}

/**
 * An OpenAI-compatible provider as an injected fetch, with no network at all: it lists the
 * default model (a valid key, a known model) and answers every completion with `reply`, counting its calls.
 */
export function standInProvider(reply = 'I hear you.'): StandInProvider {
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    if (typeof init?.body === 'string' && (JSON.parse(init.body) as { stream?: boolean }).stream === true) {
      const pieces = reply.split(/(?<= )/);
      return new Response(completionStream(...pieces), { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    const body = url.pathname.endsWith('/models') ? modelList() : completion(reply);
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, calls };
}

export interface ReadyApp {
  readonly app: FastifyInstance;
  /** Provider calls made so far, as `METHOD /path`. */
  readonly calls: string[];
  /** Exit codes the system asked for (none expected). */
  readonly exits: number[];
  /** Every event on the bus so far. */
  readonly events: BusEvent[];
  /** Moves the virtual clock and scheduler on (see `Harness.advance`). */
  advance(ms: number): void;
}

/**
 * The real HTTP app over the real actor system, ready, for `app.inject`: the provider is the
 * stand-in, the clock is fixed and virtual time never moves, so the drift never ticks and the
 * emotions move only when a chat is accepted.
 */
export async function readyApp(
  t: Test,
  env: Record<string, string> = {},
  options: Pick<HarnessOptions, 'appraisalModel'> = {},
): Promise<ReadyApp> {
  const provider = standInProvider();
  const settings = { LLM_API_KEY: 'sk-test-robust', LLM_TIMEOUT_MS: '30000', ...env };
  const { system, bus, exits, events, advance } = harness(t, settings, t.testdir(), { fetch: provider.fetch, debug: false, ...options });
  const app = await buildApp({
    bus,
    clock: fixedClock(START),
    logger: createLogger({ debug: false, destination: { write: () => undefined } }),
    config: loadChatConfig(settings),
  });
  t.teardown(() => app.close());
  system.start();
  if ((await system.settled()) !== 'ready') throw new Error('the chat system did not become ready');
  return { app, calls: provider.calls, exits, events, advance };
}

export function completion(content: string | null): object {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_790_000_000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
  };
}

/** One chunk of a streamed completion, as `data:` of the provider's event stream carries it. */
export function completionChunk(content: string, finishReason: string | null = null): object {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_790_000_000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta: { content }, finish_reason: finishReason, logprobs: null }],
  };
}

/** A streamed completion's event-stream frame for one piece (what an OpenAI-compatible server writes). */
export function completionFrame(content: string): string {
  return `data: ${JSON.stringify(completionChunk(content))}\n\n`;
}

/** The frames that end a streamed completion normally. */
export const COMPLETION_END = `data: ${JSON.stringify(completionChunk('', 'stop'))}\n\ndata: [DONE]\n\n`;

/** A whole streamed completion, its pieces then its normal end. */
export function completionStream(...pieces: string[]): string {
  return pieces.map(completionFrame).join('') + COMPLETION_END;
}

/** A provider's answer to `GET /models`: by default it offers the default model the tests configure. */
export function modelList(...ids: string[]): object {
  const offered = ids.length === 0 ? [DEFAULT_MODEL] : ids;
  return { object: 'list', data: offered.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })) };
}

export function ofType<T extends BusEvent['type']>(events: BusEvent[], type: T): Extract<BusEvent, { type: T }>[] {
  return events.filter((event): event is Extract<BusEvent, { type: T }> => event.type === type);
}

/** The chat whose change a `mood.changed` carries; undefined for a drift or a snapshot. */
export function correlationOf(event: MoodChanged | undefined): string | undefined {
  return event?.change.kind === 'chat' ? event.change.correlationId : undefined;
}
