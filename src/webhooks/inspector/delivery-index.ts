import { createHash } from 'node:crypto';
import type { JournalEntry } from '../journal/entry.js';
import { type DeliveryOutcome, outcomeOf, type ReplayRecord, replayKey } from '../recovery/replay-record.js';

/** One delivery as the inspector's list shows it. */
export interface DeliverySummary {
  /** Stable across reloads of the journal: a digest of what identifies the entry. */
  readonly id: string;
  readonly webhookId: string | null;
  readonly receivedAt: string;
  readonly route: string;
  /** `scope:action`, or `-` when the body is no payload. */
  readonly event: string;
  /** `type name`, or `-`. */
  readonly repo: string;
  readonly status: number;
  readonly outcome: DeliveryOutcome;
  readonly ms: number;
  /** The latest replay's verdict, when it was replayed. */
  readonly verdict?: ReplayRecord['verdict'];
}

/** What the list is narrowed to; every field optional, all of them must match. */
export interface DeliveryFilter {
  /** `scope` or `scope:action`. */
  readonly event?: string;
  /** A part of the repository's name (any case). */
  readonly repo?: string;
  readonly status?: DeliveryOutcome;
  /** ISO times, inclusive. */
  readonly from?: string;
  readonly to?: string;
  /** Words that must all appear somewhere in the delivery (headers, body, answer), any case. */
  readonly text?: string;
}

const OUTCOMES: readonly DeliveryOutcome[] = ['delivered', 'failed', 'refused'];

/** A filter from a query string's values; anything unknown or empty is left out. */
export function parseFilter(query: Readonly<Record<string, string | undefined>>): DeliveryFilter {
  const value = (name: string): string | undefined => query[name]?.trim() || undefined;
  const time = (name: string): string | undefined => {
    const raw = value(name);
    if (raw === undefined) return undefined;
    const parsed = new Date(raw);
    return Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString();
  };
  const status = value('status');
  const filter: Record<string, string> = {};
  const event = value('event');
  const repo = value('repo');
  const text = value('q');
  const from = time('from');
  const to = time('to');
  if (event !== undefined) filter.event = event;
  if (repo !== undefined) filter.repo = repo.toLowerCase();
  if (status !== undefined && (OUTCOMES as readonly string[]).includes(status)) filter.status = status;
  if (from !== undefined) filter.from = from;
  if (to !== undefined) filter.to = to;
  if (text !== undefined) filter.text = text.toLowerCase();
  return filter as DeliveryFilter;
}

interface Indexed {
  readonly entry: JournalEntry;
  readonly summary: DeliverySummary;
  readonly scope: string;
  readonly repoName: string;
  /** Everything searchable, lower-cased once at load: a filter costs one `includes` per word. */
  readonly text: string;
}

export function entryId(entry: JournalEntry): string {
  return createHash('sha256')
    .update(JSON.stringify([entry.receivedAt, entry.webhookId, entry.route, entry.status, entry.ms]))
    .digest('base64url')
    .slice(0, 16);
}

function describe(body: unknown): { scope: string; event: string; repo: string; repoName: string } {
  const payload = (body ?? {}) as { event?: { scope?: unknown; action?: unknown }; repo?: { type?: unknown; name?: unknown } };
  const scope = typeof payload.event?.scope === 'string' ? payload.event.scope : '';
  const action = typeof payload.event?.action === 'string' ? payload.event.action : '';
  const repoName = typeof payload.repo?.name === 'string' ? payload.repo.name : '';
  return {
    scope,
    event: scope && action ? `${scope}:${action}` : '-',
    repo: repoName ? `${String(payload.repo?.type ?? '?')} ${repoName}` : '-',
    repoName: repoName.toLowerCase(),
  };
}

/**
 * The journal's deliveries held for the inspector: summaries made and search text lower-cased once,
 * as entries arrive, so that a filter over ten thousand of them is a pass of string compares.
 */
export class DeliveryIndex {
  /** Oldest first, as the journal has them. */
  readonly #items: Indexed[] = [];
  readonly #byId = new Map<string, Indexed>();
  readonly #replays = new Map<string, ReplayRecord[]>();

  get size(): number {
    return this.#items.length;
  }

  /** Adds the entries not held yet; returns the summaries of those added. */
  add(entries: readonly JournalEntry[]): DeliverySummary[] {
    const added: DeliverySummary[] = [];
    for (const entry of entries) {
      const id = entryId(entry);
      if (this.#byId.has(id)) continue;
      const { scope, event, repo, repoName } = describe(entry.body);
      const summary: DeliverySummary = {
        id,
        webhookId: entry.webhookId,
        receivedAt: entry.receivedAt,
        route: entry.route,
        event,
        repo,
        status: entry.status,
        outcome: outcomeOf(entry.status),
        ms: entry.ms,
      };
      const text = `${JSON.stringify(entry.headers)}\n${entry.rawBody ?? JSON.stringify(entry.body)}\n${entry.answer ?? ''}`.toLowerCase();
      const item = { entry, summary, scope, repoName, text };
      this.#items.push(item);
      this.#byId.set(id, item);
      added.push(this.#withVerdict(item));
    }
    return added;
  }

  /** Forgets every entry (the journal was rewritten); replays stay. */
  clear(): void {
    this.#items.length = 0;
    this.#byId.clear();
  }

  /** The replay log as it is now, oldest first. */
  setReplays(records: readonly ReplayRecord[]): void {
    this.#replays.clear();
    for (const record of records) {
      const key = replayKey(record);
      this.#replays.set(key, [...(this.#replays.get(key) ?? []), record]);
    }
  }

  get(id: string): { entry: JournalEntry; summary: DeliverySummary; replays: readonly ReplayRecord[] } | undefined {
    const item = this.#byId.get(id);
    if (item === undefined) return undefined;
    return { entry: item.entry, summary: this.#withVerdict(item), replays: this.#replays.get(replayKey(item.entry)) ?? [] };
  }

  /** The deliveries that match, newest first, at most `limit`, and how many matched in all. */
  filter(filter: DeliveryFilter, limit = 500): { matched: number; deliveries: DeliverySummary[] } {
    const words = filter.text?.split(/\s+/).filter(Boolean) ?? [];
    const deliveries: DeliverySummary[] = [];
    let matched = 0;
    for (let i = this.#items.length - 1; i >= 0; i--) {
      const item = this.#items[i]!;
      if (!matches(item, filter, words)) continue;
      matched += 1;
      if (deliveries.length < limit) deliveries.push(this.#withVerdict(item));
    }
    // Appended in the order answered: the newest received first, ties kept in that order.
    deliveries.sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
    return { matched, deliveries };
  }

  #withVerdict(item: Indexed): DeliverySummary {
    const latest = this.#replays.get(replayKey(item.entry))?.at(-1);
    return latest === undefined ? item.summary : { ...item.summary, verdict: latest.verdict };
  }
}

function matches(item: Indexed, filter: DeliveryFilter, words: readonly string[]): boolean {
  const { summary } = item;
  if (filter.status !== undefined && summary.outcome !== filter.status) return false;
  if (filter.event !== undefined && summary.event !== filter.event && item.scope !== filter.event) return false;
  if (filter.repo !== undefined && !item.repoName.includes(filter.repo)) return false;
  if (filter.from !== undefined && summary.receivedAt < filter.from) return false;
  if (filter.to !== undefined && summary.receivedAt > filter.to) return false;
  return words.every((word) => item.text.includes(word));
}
