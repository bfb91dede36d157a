import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** A webhook `hub webhooks listen` created and has not deleted yet. */
export interface ListenedWebhook {
  readonly id: string;
  /** The hub it was created on (`HF_ENDPOINT`): a leftover is deleted on its own hub only. */
  readonly endpoint: string;
  /** The `listen` process that owns it: while it runs, its webhook is not a leftover. */
  readonly pid: number;
  readonly createdAt: string;
}

/** `$XDG_CACHE_HOME/emotion-hub/listen-webhooks.json`, else `~/.cache/emotion-hub/listen-webhooks.json`. */
export function listenRecordPath(env: NodeJS.ProcessEnv): string {
  const cache = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(cache, 'emotion-hub', 'listen-webhooks.json');
}

/**
 * What `listen` remembers in the user's cache directory, so that a `listen` that was killed (SIGKILL,
 * a power cut) leaves no webhook behind: the next one deletes it. Written whole and renamed into place.
 */
export class ListenRecord {
  constructor(readonly path: string) {}

  async read(): Promise<ListenedWebhook[]> {
    try {
      const value = JSON.parse(await readFile(this.path, 'utf8')) as unknown;
      return Array.isArray(value) ? (value as ListenedWebhook[]).filter((entry) => typeof entry?.id === 'string') : [];
    } catch {
      // None yet, or unreadable: nothing to clean up that we can know of.
      return [];
    }
  }

  async add(webhook: ListenedWebhook): Promise<void> {
    await this.#write([...(await this.read()).filter((entry) => entry.id !== webhook.id), webhook]);
  }

  async remove(id: string): Promise<void> {
    await this.#write((await this.read()).filter((entry) => entry.id !== id));
  }

  async #write(entries: readonly ListenedWebhook[]): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(entries, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, this.path);
  }
}

/** The recorded webhooks on `endpoint` whose `listen` is gone. */
export function leftovers(entries: readonly ListenedWebhook[], endpoint: string, isRunning: (pid: number) => boolean): ListenedWebhook[] {
  return entries.filter((entry) => entry.endpoint === endpoint && !isRunning(entry.pid));
}

/** Whether a process with this id exists (signal 0 checks without sending anything). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
