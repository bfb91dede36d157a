import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The file that keeps a generated secret, beside the emotions file (the state's folder). */
export const SESSION_SECRET_FILE = 'session-secret';

/** 32 random bytes, base64url: what signs session ids when `SESSION_SECRET` is unset. */
export function newSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Shares one secret between replicas: stores `candidate` unless one is stored, and gives back the stored one. */
export type SharedSecret = (candidate: string) => Promise<string>;

export interface SessionSecretSource {
  /** `SESSION_SECRET`, when set: it wins. */
  readonly configured: string | undefined;
  /** The emotions file: a generated secret is kept in its folder. */
  readonly emotionsFile: string;
  /** Replicas (`REDIS_URL`) share a generated secret there, so each accepts the ids the others issued. */
  readonly shared?: SharedSecret;
}

export interface SessionSecret {
  readonly secret: string;
  /** Set when a generated secret could not be kept (a read-only folder): why. Ids then last until the next start. */
  readonly notKept?: string;
}

/**
 * The secret that signs session ids: `SESSION_SECRET`; else, for replicas, the one stored in Redis
 * (the first replica stores its own); else the one kept in `session-secret` beside the emotions
 * file (mode 0600), generated on the first start, so ids stay valid across restarts.
 */
export async function loadSessionSecret(source: SessionSecretSource): Promise<SessionSecret> {
  if (source.configured !== undefined) return { secret: source.configured };
  if (source.shared !== undefined) return { secret: await source.shared(newSessionSecret()) };
  const file = join(dirname(source.emotionsFile), SESSION_SECRET_FILE);
  const kept = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (kept !== '') return { secret: kept };
  const secret = newSessionSecret();
  // A folder that cannot be made shows in the write's error.
  await mkdir(dirname(file), { recursive: true }).catch(() => undefined);
  try {
    // `wx`: two processes starting at once on one folder keep the first one's secret.
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return { secret };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { secret: (await readFile(file, 'utf8')).trim() };
    return { secret, notKept: `cannot write ${file} (${(error as Error).message})` };
  }
}
