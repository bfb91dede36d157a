import type { DeliveryJournal } from '../../webhooks/journal/entry.js';
import { openJournal } from '../../webhooks/journal/open-journal.js';

/**
 * The journal `listen --journal` names, each entry stamped with the forward target: `redeliver --failed`
 * and the inspector's Replay send a delivery back there unless told otherwise.
 */
export async function openListenJournal(where: string, maxEntries: number, target: URL | undefined): Promise<DeliveryJournal> {
  const journal = await openJournal(where, undefined, maxEntries);
  if (target === undefined) return journal;
  const href = target.href;
  return {
    append: (entry) => journal.append({ ...entry, target: href }),
    read: () => journal.read(),
    close: () => journal.close(),
  };
}
