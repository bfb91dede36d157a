import { basename, dirname, extname, join } from 'node:path';
import { open } from 'lmdb';
import type { EmotionState } from '../emotions/state.js';
import type { ChatExchange } from '../mood-ledger/mood-ledger.js';
import { parseEmotionsFile, toEmotionsFile } from '../persistence/emotions-file.js';
import type { SessionBounds } from '../conversations/session-bounds.js';
import { DurableMoodLedger, type MoodJournal } from './durable-mood-ledger.js';
import { LmdbConversationStore, type StoredConversation } from './lmdb-conversation-store.js';

/** The one key of the mood database: the state after the last committed change. */
const STATE_KEY = 'state';

/** What makes the single process's state last: its ledger and conversations, in one database. */
export interface EmbeddedStore {
  /** The database's folder. */
  readonly path: string;
  readonly ledger: DurableMoodLedger;
  readonly conversations: LmdbConversationStore;
  /** Closes the database; after the system has closed the ledger and the store. */
  close(): Promise<void>;
}

/** The embedded database beside the emotions file: `emotions.json` → `emotions.db/`. */
export function embeddedStorePath(emotionsFile: string): string {
  const name = basename(emotionsFile, extname(emotionsFile) === '.json' ? '.json' : '');
  return join(dirname(emotionsFile), `${name}.db`);
}

/**
 * Opens (or creates) the embedded database beside `emotionsFile`: an lmdb environment with two
 * databases, the mood (the state after the last change, in the emotions file's own layout, so it
 * is checked the same way when read back) and the conversations. Commits are synchronous and do
 * not wait for the disk (`noSync`): once one returns, it is in the operating system's cache and
 * survives the process (a SIGKILL, a crash), not a power cut (see docs/robustness.md).
 */
export function openEmbeddedStore(emotionsFile: string, bounds: SessionBounds): EmbeddedStore {
  const path = embeddedStorePath(emotionsFile);
  const env = open({ path, maxDbs: 2, noSync: true });
  try {
    const moodDb = env.openDB<string, string>({ name: 'mood', encoding: 'string' });
    const conversations = new LmdbConversationStore(env.openDB<StoredConversation, string>({ name: 'conversations' }), bounds);
    const stored = moodDb.get(STATE_KEY);
    /** The text this process read or wrote last: another text on disk is another process's commit. */
    let known = stored;
    const journal: MoodJournal = {
      kept: stored === undefined ? undefined : parseEmotionsFile(`${path} (mood)`, stored),
      commit(state: EmotionState, exchanges: readonly ChatExchange[]): void {
        // Compact: the file's layout without its indentation, which would double the text each chat encodes.
        const text = JSON.stringify(toEmotionsFile(state));
        const noteExchanges = env.transactionSync(() => {
          moodDb.putSync(STATE_KEY, text);
          return conversations.stage(exchanges);
        });
        known = text;
        noteExchanges();
      },
      committedElsewhere(): EmotionState | undefined {
        // The latest commit, not the snapshot this process read last.
        moodDb.resetReadTxn();
        const latest = moodDb.get(STATE_KEY);
        if (latest === undefined || latest === known) return undefined;
        known = latest;
        return parseEmotionsFile(`${path} (mood)`, latest);
      },
    };
    return { path, ledger: new DurableMoodLedger(journal), conversations, close: () => env.close() };
  } catch (error) {
    void env.close();
    throw error;
  }
}
