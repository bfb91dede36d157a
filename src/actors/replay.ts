import type { BusEvent } from '../bus/events.js';
import { readEventLog } from '../bus/event-log-reader.js';
import { defaultState, foldEvent, type EmotionState } from '../emotions/state.js';

/** The start of a log with no `emotions.loaded` (or a Redis with no snapshot): the defaults, at the epoch (no clock in a replay). */
export const REPLAY_START = defaultState(new Date(0).toISOString());

/** Folds events into the final state, exactly as the live actors changed it. */
export async function replayEvents(events: AsyncIterable<BusEvent> | Iterable<BusEvent>): Promise<EmotionState> {
  let state = REPLAY_START;
  for await (const event of events) state = foldEvent(state, event);
  return state;
}

export interface ReplayOptions {
  /** Told about a crash-truncated last line that was skipped. */
  readonly onWarning?: (message: string) => void;
}

/**
 * Replays a JSONL event log (`EVENT_LOG`) and returns the state its run ended with. A last line a
 * crash cut short is skipped with a warning; any other malformed line rejects with an
 * EventLogLineError naming the line.
 */
export function replayEventLog(file: string, options: ReplayOptions = {}): Promise<EmotionState> {
  return replayEvents(
    readEventLog(file, {
      allowTruncatedTail: true,
      onTruncatedTail: (line) => options.onWarning?.(`${file}:${line}: skipped a truncated last line (the run was cut short)`),
    }),
  );
}
