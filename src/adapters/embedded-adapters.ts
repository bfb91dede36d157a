import type { ChatConfig } from '../config/chat-config.js';
import type { EmbeddedStore } from '../embedded/embedded-store.js';
import { probeStoreFile } from '../embedded/store-probe.js';
import { ALWAYS_HELD } from '../mood-ledger/drift-lease.js';
import { loadEmotionsFile } from '../persistence/emotions-file.js';
import type { Adapters, AdaptersDeps, SystemAdapters } from './types.js';
import { ClosingOrder } from './closing-order.js';
import { sessionBoundsOf } from './session-bounds-of.js';

/**
 * One process alone keeps its mood and conversations in the embedded database beside the emotions
 * file (lmdb, loaded only when the system asks for them); it drifts alone.
 */
export function embeddedAdapters(config: ChatConfig, deps: Pick<AdaptersDeps, 'clock' | 'logger'>): Adapters {
  const opened = new ClosingOrder(deps.logger);
  let store: EmbeddedStore | undefined;
  let opening: Promise<SystemAdapters> | undefined;
  return {
    mode: 'embedded',
    forSystem: () =>
      (opening ??= (async () => {
        store = opened.add('embedded database', await openEmbeddedStoreOf(config, deps));
        return {
          ledger: opened.add('mood ledger', store.ledger),
          conversations: opened.add('conversation store', store.conversations),
          driftLease: ALWAYS_HELD,
        };
      })()),
    adoptPredecessorWrites: () => store?.conversations.adoptDisk(),
    close: () => opened.close(),
  };
}

/**
 * Opens the store after probing its file: lmdb trusts what it maps, and a damaged file would crash
 * or spin the process instead of failing. An empty store beside an emotions file with a saved mood
 * means conversations were lost (the store deleted or replaced): said once, at `warn`.
 */
async function openEmbeddedStoreOf(config: ChatConfig, { clock, logger }: Pick<AdaptersDeps, 'clock' | 'logger'>): Promise<EmbeddedStore> {
  let embedded: typeof import('../embedded/embedded-store.js');
  try {
    embedded = await import('../embedded/embedded-store.js');
  } catch (error) {
    throw openError('cannot load the conversation store', error);
  }
  const path = embedded.embeddedStorePath(config.emotionsFile);
  let problem: string | undefined;
  try {
    problem = await probeStoreFile(path);
  } catch (error) {
    throw openError(`cannot open the conversation store ${path}`, error);
  }
  if (problem !== undefined)
    throw new Error(
      `the conversation store ${path} is damaged: ${problem}. Move it away (mv ${path} ${path}.damaged) and start again: ` +
        `the mood in ${config.emotionsFile} is kept, the conversations in the damaged store are not`,
    );
  let store: EmbeddedStore;
  try {
    store = embedded.openEmbeddedStore(config.emotionsFile, sessionBoundsOf(config, clock));
  } catch (error) {
    throw openError(`cannot open the conversation store ${path}`, error);
  }
  if (store.ledger.held === undefined) {
    const saved = await loadEmotionsFile(config.emotionsFile).catch(() => undefined);
    if (saved !== undefined)
      logger.warn(
        { store: path, emotionsFile: config.emotionsFile, savedAt: saved.lastUpdated },
        'the conversation store is empty while the emotions file holds a saved mood: the conversations from before are not there (was the store deleted or replaced?)',
      );
  }
  return store;
}

function openError(message: string, error: unknown): Error {
  return new Error(`${message} (${(error as Error).message})`, { cause: error });
}
