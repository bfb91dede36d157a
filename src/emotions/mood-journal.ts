import type { EmotionDeltas, EmotionName, Emotions, MoodChange } from './emotions.js';
import { emotionRecord } from './emotions.js';

/** How many of the latest changes `GET /api/mood/why` explains. */
export const MOOD_JOURNAL_LENGTH = 50;

/** One change as the mood's explanation shows it: numbers only, never a message's words. */
export interface MoodStep {
  readonly at: string;
  readonly kind: MoodChange['kind'];
  /** The emotions after the change minus before it, unrounded. */
  readonly delta: EmotionDeltas;
  /** A chat's: the emotion its message expressed most. */
  readonly strongest?: EmotionName;
  /** A chat's: who read its message, the local model or the chat model (`APPRAISAL=model`). */
  readonly source?: 'local' | 'model';
}

/** One change with the emotions before it. */
export interface JournalEntry {
  readonly before: Emotions;
  readonly step: MoodStep;
}

/** The latest changes, each with the emotions before it, and the emotions after the last. */
export interface MoodJournal {
  readonly entries: readonly JournalEntry[];
  readonly emotions: Emotions;
}

/** What `GET /api/mood/why` answers: `from` plus the sum of the deltas is `emotions` (to floating-point rounding). */
export interface MoodExplanation {
  readonly from: Emotions;
  readonly changes: MoodStep[];
  readonly emotions: Emotions;
}

/** A journal with no change yet, at `emotions` (the state the run loaded). */
export function startJournal(emotions: Emotions): MoodJournal {
  return { entries: [], emotions };
}

/** The entry of `change`, which took the emotions from `before` to `after`. */
export function journalEntry(before: Emotions, change: MoodChange, after: Emotions): JournalEntry {
  const delta = emotionRecord((name) => after[name] - before[name]);
  const step: MoodStep =
    change.kind === 'chat' && change.appraisal !== undefined
      ? {
          at: change.at,
          kind: change.kind,
          delta,
          strongest: change.appraisal.strongest,
          ...(change.appraisal.source === undefined ? {} : { source: change.appraisal.source }),
        }
      : { at: change.at, kind: change.kind, delta };
  return { before, step };
}

/** The journal after `change` took the emotions to `after`; the oldest entry goes beyond the length. */
export function recordChange(journal: MoodJournal, change: MoodChange, after: Emotions): MoodJournal {
  const entries = [...journal.entries, journalEntry(journal.emotions, change, after)];
  return { entries: entries.length > MOOD_JOURNAL_LENGTH ? entries.slice(-MOOD_JOURNAL_LENGTH) : entries, emotions: after };
}

export function explain(journal: MoodJournal): MoodExplanation {
  return {
    from: journal.entries[0]?.before ?? journal.emotions,
    changes: journal.entries.map(({ step }) => step),
    emotions: journal.emotions,
  };
}
