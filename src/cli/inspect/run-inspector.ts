import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { isRedisUrl } from '../../config/redis-url.js';
import { DeliveryIndex } from '../../webhooks/inspector/delivery-index.js';
import { openReplayLog } from '../../webhooks/journal/replay-log.js';
import { resendDelivery } from '../resend-delivery.js';
import { buildInspectorApp } from './inspector-app.js';
import { followFile, type JournalFollower } from './journal-follower.js';

/** The page of the inspector: public/inspect/, beside the chat page's. */
const PAGE_DIR = fileURLToPath(new URL('../../../public/inspect/', import.meta.url));

/** How often the journal is looked at: a delivery shows within a second, at one `stat` per look. */
export const DEFAULT_POLL_MS = 250;

export interface InspectorOptions {
  /** A journal file, or a redis:// URL. */
  readonly journal: string;
  readonly host: string;
  readonly port: number;
  /** Sent in X-Webhook-Secret with each replay; never shown. */
  readonly secret: string | undefined;
  readonly fetch?: typeof fetch | undefined;
  readonly pollMs?: number;
  /** Told of a look at the journal that failed (once per kind of failure). */
  readonly warn: (line: string) => void;
}

export interface RunningInspector {
  /** The URL to open, with its token. */
  readonly url: string;
  readonly deliveries: number;
  close(): Promise<void>;
}

/**
 * Loads the journal, serves the inspector on `host:port` behind a fresh random token, and keeps
 * looking at the journal (and the replay log beside it) for what arrives, told to open pages live.
 */
export async function runInspector(options: InspectorOptions): Promise<RunningInspector> {
  const index = new DeliveryIndex();
  const follower = await follow(options.journal);
  const replays = await openReplayLog(options.journal);
  const first = await follower.next();
  index.add(first.entries);
  index.setReplays(await replays.read());
  const token = randomBytes(24).toString('base64url');
  const { app, broadcast } = await buildInspectorApp({
    index,
    token,
    pageDir: PAGE_DIR,
    secrets: options.secret === undefined ? [] : [options.secret],
    replay: async (id, to) => {
      const { entry } = index.get(id)!;
      const { record } = await resendDelivery(entry, to ?? new URL(entry.target!), {
        secret: options.secret,
        fetch: options.fetch,
        by: 'inspect',
      });
      await replays.append(record);
      index.setReplays(await replays.read());
      broadcast('replay', { id, replay: record, summary: index.get(id)?.summary });
      return record;
    },
  });

  let looks = 0;
  let lastFailure = '';
  const look = async (): Promise<void> => {
    const change = await follower.next();
    if (change.reset && looks > 0) index.clear();
    for (const summary of index.add(change.entries)) broadcast('delivery', summary);
    // The replay log changes rarely, and by another process only with `redeliver --failed`: once a second.
    if (++looks % Math.max(1, Math.round(1000 / (options.pollMs ?? DEFAULT_POLL_MS))) === 0) index.setReplays(await replays.read());
  };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      look()
        .then(() => (lastFailure = ''))
        .catch((error: Error) => {
          if (error.message !== lastFailure) options.warn(`Cannot read the journal ${options.journal}: ${error.message}`);
          lastFailure = error.message;
        })
        .finally(schedule);
    }, options.pollMs ?? DEFAULT_POLL_MS);
  };

  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await follower.close();
    await replays.close();
    throw error;
  }
  schedule();
  const { port } = app.server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/?token=${token}`,
    deliveries: index.size,
    async close() {
      stopped = true;
      clearTimeout(timer);
      await app.close();
      await follower.close();
      await replays.close();
    },
  };
}

async function follow(journal: string): Promise<JournalFollower> {
  if (!isRedisUrl(journal)) return followFile(journal);
  const [{ connectRedis, DEFAULT_COMMAND_TIMEOUT_MS }, { followRedis }, pino] = await Promise.all([
    import('../../redis/connection.js'),
    import('./journal-follower.js'),
    import('pino'),
  ]);
  return followRedis(
    await connectRedis(journal, {
      name: 'webhook-inspector',
      logger: pino.default({ enabled: false }),
      commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS,
    }),
  );
}
