/** One delivery as the journal keeps it: one JSON line in a file, one entry in a Redis stream. */
export interface JournalEntry {
  /** The Hub's `Webhook-Id` header; `null` when the delivery carried none. */
  readonly webhookId: string | null;
  /** The route name (`''` for the bare `/webhooks` route). */
  readonly route: string;
  /** ISO time the delivery was received. */
  readonly receivedAt: string;
  /** The request headers, lower-cased, without `X-Webhook-Secret` (the secret's value is never written). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as received (UTF-8 text), `null` when it was never read (a refusal before the body). */
  readonly body: string | null;
  /** The answer's status. */
  readonly status: number;
  /** Milliseconds from the request to the answer. */
  readonly ms: number;
}

/** Where the receiver writes its deliveries; `hub webhooks deliveries` and `redeliver` read them back. */
export interface DeliveryJournal {
  append(entry: JournalEntry): Promise<void>;
  /** Every entry, oldest first. */
  read(): Promise<JournalEntry[]>;
  close(): Promise<void>;
}

const FIELDS = ['webhookId', 'route', 'receivedAt', 'headers', 'body', 'status', 'ms'] as const;

/** A journal line back to an entry; anything else (a torn last line, a foreign line) is `undefined`. */
export function parseJournalLine(line: string): JournalEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const entry = value as Record<string, unknown>;
  if (!FIELDS.every((field) => field in entry) || typeof entry.status !== 'number' || typeof entry.receivedAt !== 'string')
    return undefined;
  return entry as unknown as JournalEntry;
}
