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
  /** The body, parsed: the payload as JSON, readable with `jq`; `null` when it was never read or is not JSON. */
  readonly body: unknown;
  /**
   * The body's text as it came, only when it differs from `JSON.stringify(body)` (spaces, key escapes, a
   * body that is not JSON): with `body`, the exact bytes, which `redeliver` sends.
   */
  readonly rawBody?: string;
  /** The answer's status. */
  readonly status: number;
  /** Milliseconds from the request to the answer. */
  readonly ms: number;
  /** The answer's body, its first 2,048 characters; absent when it was empty. */
  readonly answer?: string;
  /** Where `hub webhooks listen` forwarded it (`--forward-to`): the target a replay goes to by default. */
  readonly target?: string;
}

/** The longest answer body the journal keeps, in characters: enough to read an error, never a whole page. */
export const ANSWER_EXCERPT_CHARS = 2048;

/** What a journal holds: its entries, oldest first, and how many records were not entries (corrupt, cut short). */
export interface JournalContents {
  readonly entries: JournalEntry[];
  readonly skipped: number;
}

/** Where the receiver writes its deliveries; `hub webhooks deliveries` and `redeliver` read them back. */
export interface DeliveryJournal {
  append(entry: JournalEntry): Promise<void>;
  read(): Promise<JournalContents>;
  close(): Promise<void>;
}

const FIELDS = ['webhookId', 'route', 'receivedAt', 'headers', 'body', 'status', 'ms'] as const;

/** `body` and, when needed to give the bytes back, `rawBody`, from a body's bytes. */
export function journalBody(raw: Buffer | undefined): Pick<JournalEntry, 'body' | 'rawBody'> {
  if (raw === undefined) return { body: null };
  const text = raw.toString('utf8');
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    return { body, rawBody: text };
  }
  return JSON.stringify(body) === text ? { body } : { body, rawBody: text };
}

/** The bytes a journaled delivery came with; `undefined` when its body was never read. */
export function deliveredText(entry: JournalEntry): string | undefined {
  if (entry.rawBody !== undefined) return entry.rawBody;
  return entry.body === null ? undefined : JSON.stringify(entry.body);
}

/** A journal line back to an entry; anything else (a torn last line, a foreign line) is `undefined`. */
/** The entries of a journal's records (lines, stream items), counting those that are not entries; blank ones are nothing. */
export function parseJournalLines(lines: readonly string[]): JournalContents {
  const entries: JournalEntry[] = [];
  let skipped = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const entry = parseJournalLine(line);
    if (entry === undefined) skipped += 1;
    else entries.push(entry);
  }
  return { entries, skipped };
}

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
