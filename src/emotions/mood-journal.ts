import type { EmotionDeltas, EmotionName, Emotions, MoodChange } from './emotions.js';
import { EMOTION_NAMES, emotionRecord } from './emotions.js';

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

/** What moved one emotion over the explained changes: the drift's ticks, and the messages (everyone's chats). */
export interface KindTotals {
  readonly drift: number;
  readonly messages: number;
}

/** The places `GET /api/mood/why`'s totals are rounded to; its changes keep their exact deltas. */
const TOTAL_PLACES = 4;

const rounded = (value: number) => Math.round(value * 10 ** TOTAL_PLACES) / 10 ** TOTAL_PLACES || 0;

/**
 * For each emotion, the sum of the changes' deltas by kind, rounded to 4 decimals. A snapshot (a
 * replica taking the shared state) is neither: it carries someone's change already counted where it
 * was made.
 */
export function moodTotals(changes: readonly MoodStep[]): Record<EmotionName, KindTotals> {
  const sums = Object.fromEntries(EMOTION_NAMES.map((name) => [name, { drift: 0, messages: 0 }])) as Record<
    EmotionName,
    { drift: number; messages: number }
  >;
  for (const change of changes) {
    if (change.kind === 'snapshot') continue;
    const kind = change.kind === 'drift' ? 'drift' : 'messages';
    for (const name of EMOTION_NAMES) sums[name][kind] += change.delta[name];
  }
  return Object.fromEntries(
    EMOTION_NAMES.map((name) => [name, { drift: rounded(sums[name].drift), messages: rounded(sums[name].messages) }]),
  ) as Record<EmotionName, KindTotals>;
}
