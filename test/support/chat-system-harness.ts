import { join } from 'node:path';
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import type { Test } from 'tap';
import { createChatSystem, type ChatSystem } from '../../src/actors/chat-system.js';
import { Bus } from '../../src/bus/bus.js';
import type { BusEvent } from '../../src/bus/events.js';
import { DEFAULT_MODEL, loadChatConfig } from '../../src/config/chat-config.js';
import { LocalMoodLedger } from '../../src/mood/local-mood-ledger.js';
import type { MoodLedger } from '../../src/mood/mood-ledger.js';
import type { ConversationStore } from '../../src/sessions/conversation-store.js';
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
  /** The mood ledger the system was given (in-process unless the caller passed one). */
  readonly ledger: MoodLedger;
  readonly logs: Record<string, unknown>[];
  readonly exits: number[];
  /** Resolves with the exit code the first time the system calls exit. */
  readonly exited: Promise<number>;
  /** Moves the virtual clock and scheduler on: drift ticks and coalesced writes happen here. */
  advance(ms: number): void;
}

/**
 * A chat system on a temporary directory with a fixed clock, a seeded random source, a
 * virtual-time scheduler, a captured logger and an exit that records instead of ending the process.
 */
export function harness(
  t: Test,
  env: Record<string, string> = {},
  dir: string = t.testdir(),
  ledger: MoodLedger = new LocalMoodLedger(),
  conversations?: ConversationStore,
): Harness {
  const clock = fixedClock(START);
  const bus = new Bus({ clock });
  const events: BusEvent[] = [];
  bus.all().subscribe((event) => events.push(event));
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger({ destination: { write: (line: string) => logs.push(JSON.parse(line)) }, debug: true });
  const exits: number[] = [];
  let onExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (onExit = resolve));
  const scheduler = new VirtualTimeScheduler(VirtualAction, 0);
  const file = join(dir, 'emotions.json');
  const system = createChatSystem({
    bus,
    config: loadChatConfig({ EMOTIONS_FILE: file, LLM_BASE_URL: BASE_URL, LLM_TIMEOUT_MS: '500', ...env }),
    clock,
    random: seededRandom(42),
    logger,
    exit: (code) => {
      exits.push(code);
      onExit(code);
    },
    scheduler,
    dialogueRetries: 0,
    inspect: () => undefined,
    ledger,
    conversations,
  });
  t.teardown(() => system.stop());
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

export function completion(content: string | null): object {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_790_000_000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
  };
}

/** A provider's answer to `GET /models`: by default it offers the default model the tests configure. */
export function modelList(...ids: string[]): object {
  const offered = ids.length === 0 ? [DEFAULT_MODEL] : ids;
  return { object: 'list', data: offered.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })) };
}

export function ofType<T extends BusEvent['type']>(events: BusEvent[], type: T): Extract<BusEvent, { type: T }>[] {
  return events.filter((event): event is Extract<BusEvent, { type: T }> => event.type === type);
}
