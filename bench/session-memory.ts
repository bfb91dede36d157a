// The memory that 10,000 full sessions take in the in-process conversation store: each session
// holds its 10 exchanges of realistic length. Measured as heap growth after a full collection,
// against a baseline in the same run: the same texts held in plain arrays, without the store.
// Runs inside `npm run bench`, or alone: `npm run build && tsc -p tsconfig.bench.json && node dist-bench/bench/session-memory.js`.
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAX_SESSION_BYTES, DEFAULT_MEMORY_EXCHANGES, MemoryConversationStore, seededRandom, systemClock } from 'emotion-hub';

export interface SessionMemoryFigures {
  readonly sessions: number;
  readonly exchanges: number;
  /** Heap taken by the store holding every session, after a full collection. */
  readonly storeBytes: number;
  /** Heap taken by the same texts in plain arrays (the text itself, the floor). */
  readonly textBytes: number;
}

const WORDS = (
  'the a I you it feel like think today really very so what when why how wonderful rain sun music friend ' +
  'work tired happy sad curious afraid angry calm tell me more about that this is was will could would maybe ' +
  'little bright quiet story question answer morning evening window garden coffee book walk idea dream'
).split(' ');

/** A sentence of about `chars` characters drawn from a seeded source: every text a distinct string, as real ones are. */
function sentence(random: () => number, chars: number): string {
  const words: string[] = [];
  let length = 0;
  while (length < chars) {
    const word = WORDS[Math.floor(random() * WORDS.length)]!;
    words.push(word);
    length += word.length + 1;
  }
  words.push(`${words.pop()}.`);
  // One join: a flat string, as a parsed JSON body is (a concatenation would leave a cons string).
  return words.join(' ');
}

/** A full collection; `--expose-gc` is set from here so the script needs no flag. */
export function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function heapAfter<T>(build: () => T): { kept: T; bytes: number } {
  collect();
  const before = process.memoryUsage().heapUsed;
  const kept = build();
  collect();
  return { kept, bytes: process.memoryUsage().heapUsed - before };
}

/** A visitor's message (~80 characters) and the avatar's reply (~320: a few sentences, as the prompt asks). */
function exchangeTexts(random: () => number): [string, string] {
  return [sentence(random, 80), sentence(random, 320)];
}

export async function measureSessionMemory(sessions = 10_000, exchanges = DEFAULT_MEMORY_EXCHANGES): Promise<SessionMemoryFigures> {
  const keys = Array.from({ length: sessions }, (_, i) => createHash('sha256').update(`session ${i}`).digest('hex'));
  const text = heapAfter(() => {
    const random = seededRandom(1);
    return keys.map((key) => [key, Array.from({ length: exchanges }, () => exchangeTexts(random))] as const);
  });
  const textBytes = text.bytes;
  text.kept.length = 0;
  const store = heapAfter(() => {
    const random = seededRandom(1);
    const conversations = new MemoryConversationStore({
      maxSessions: sessions,
      idleMs: 30 * 60_000,
      maxBytes: DEFAULT_MAX_SESSION_BYTES,
      clock: systemClock,
    });
    for (const key of keys) {
      for (let i = 0; i < exchanges; i += 1) {
        const [message, reply] = exchangeTexts(random);
        void conversations.remember(key, message, reply);
      }
    }
    return conversations;
  });
  if (store.kept.size !== sessions) throw new Error(`the store kept ${store.kept.size} sessions, not ${sessions}`);
  return { sessions, exchanges, storeBytes: store.bytes, textBytes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await measureSessionMemory();
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  console.log(
    `${figures.sessions.toLocaleString('en')} sessions x ${figures.exchanges} exchanges: ${mb(figures.storeBytes)} MB in the store, ` +
      `${mb(figures.textBytes)} MB for the text alone (ratio ${(figures.storeBytes / figures.textBytes).toFixed(2)})`,
  );
}
