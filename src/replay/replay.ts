import { readEventLog, type LoggedEvent } from '../bus/event-log-reader.js';
import { REPLAY_START, type EmotionState } from '../emotions/state.js';
import { foldEvent } from './fold-event.js';

/** A log with nothing that sets a state: replaying it would only print the defaults, dated 1970. */
export class NothingToReplayError extends Error {
  override readonly name = 'NothingToReplayError';
}

/**
 * Folds events into the final state, exactly as the live actors changed it. Rejects with a
 * {@link NothingToReplayError} when no event sets a state (`emotions.loaded`, `mood.changed`, or
 * an older log's `chat.committed` and `emotions.drifted`), an empty log among them.
 */
export async function replayEvents(events: AsyncIterable<LoggedEvent> | Iterable<LoggedEvent>): Promise<EmotionState> {
  let state = REPLAY_START;
  let count = 0;
  let folded = false;
  for await (const event of events) {
    count += 1;
    const next = foldEvent(state, event);
    folded ||= next !== state;
    state = next;
  }
  if (count === 0) throw new NothingToReplayError('the log holds no events');
  if (!folded) {
    throw new NothingToReplayError(`none of its ${count} events sets a state (emotions.loaded or mood.changed)`);
  }
  return state;
}

export interface ReplayOptions {
  /** Told about a crash-truncated last line that was skipped. */
  readonly onWarning?: (message: string) => void;
}

/**
 * Replays a JSONL event log (`EVENT_LOG`) and returns the state its run ended with. A last line a
 * crash cut short is skipped with a warning; any other malformed line, or one that does not match
 * its event's schema, rejects with an EventLogLineError naming the line and the field.
 */
export function replayEventLog(file: string, options: ReplayOptions = {}): Promise<EmotionState> {
  return replayEvents(
    readEventLog(file, {
      allowTruncatedTail: true,
      onTruncatedTail: (line) => options.onWarning?.(`${file}:${line}: skipped a truncated last line (the run was cut short)`),
    }),
  );
}
