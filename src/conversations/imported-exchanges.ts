import type { ExchangeMarks, ExchangeTimes, TimedTurn, TurnVersion } from './conversation-store.js';

/** One `remember` an import makes: an exchange, or (`marks.replace`) a later version of the one before. */
export interface ImportStep {
  readonly message: string;
  readonly reply: string;
  readonly times: ExchangeTimes;
  readonly marks: ExchangeMarks;
}

/** The steps that remember an imported conversation, and how many of its messages had no place in an exchange. */
export interface ImportPlan {
  readonly steps: ImportStep[];
  readonly exchanges: number;
  readonly skipped: number;
}

/** Two messages of one side in a row (another app's doing) said as one: their texts one after the other. */
function joined(first: TimedTurn, next: TimedTurn): TimedTurn {
  return { ...first, content: `${first.content}\n\n${next.content}`, ...(next.stopped ? { stopped: true } : {}) };
}

/** A turn's versions, the oldest first and the current one last, `count` long: the oldest repeated in front (a repeat adds no version). */
function versions(turn: TimedTurn, count: number): TurnVersion[] {
  const all: TurnVersion[] = [
    ...(turn.alternatives ?? []),
    { content: turn.content, at: turn.at, ...(turn.stopped ? { stopped: true } : {}) },
  ];
  return [...new Array<TurnVersion>(count - all.length).fill(all[0] as TurnVersion), ...all];
}

/**
 * How a list of messages becomes a conversation of exchanges, as the stores keep them: each message
 * with the reply after it, and its earlier versions replayed as the regenerates and edits that made
 * them (so an exported conversation comes back the same). Two messages of one side in a row become
 * one; a reply before any message, or a message without a reply at the end, is skipped.
 */
export function importPlan(messages: readonly TimedTurn[]): ImportPlan {
  const merged: TimedTurn[] = [];
  for (const message of messages) {
    const last = merged.at(-1);
    if (last?.role === message.role) merged[merged.length - 1] = joined(last, message);
    else merged.push(message);
  }
  const steps: ImportStep[] = [];
  let exchanges = 0;
  let placed = 0;
  for (let i = 0; i + 1 < merged.length; i += 1) {
    const [user, reply] = [merged[i] as TimedTurn, merged[i + 1] as TimedTurn];
    if (user.role !== 'user') continue;
    const count = Math.max((user.alternatives?.length ?? 0) + 1, (reply.alternatives?.length ?? 0) + 1);
    const [asked, answered] = [versions(user, count), versions(reply, count)];
    for (let k = 0; k < count; k += 1) {
      const said = answered[k] as TurnVersion;
      steps.push({
        message: (asked[k] as TurnVersion).content,
        reply: said.content,
        times: { message: (asked[k] as TurnVersion).at, reply: said.at },
        marks: {
          ...(k > 0 ? { replace: true } : {}),
          ...(said.stopped ? { stopped: true } : {}),
          ...(user.appraisal ? { appraisal: user.appraisal } : {}),
        },
      });
    }
    exchanges += 1;
    placed += 2;
    i += 1;
  }
  return { steps, exchanges, skipped: merged.length - placed };
}
