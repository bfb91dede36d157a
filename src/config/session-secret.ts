import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The file that keeps a generated secret, beside the emotions file (the state's folder). */
export const SESSION_SECRET_FILE = 'session-secret';

/** Shorter than this, a secret can be guessed: `SESSION_SECRET` is refused, a kept one replaced. */
export const MIN_SESSION_SECRET_LENGTH = 32;

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
  /** Set when the kept file held no usable secret (blank, or too short to be one) and a new one replaced it: why. */
  readonly replaced?: string;
}

/**
 * The secret that signs session ids: `SESSION_SECRET`; else, for replicas, the one stored in Redis
 * (the first replica stores its own); else the one kept in `session-secret` beside the emotions
 * file (mode 0600), generated on the first start, so ids stay valid across restarts. A kept file
 * that is blank or shorter than `MIN_SESSION_SECRET_LENGTH` (a disk that filled, a hand edit) is
 * never a key: a new secret replaces it, and the caller says so. The file is written whole or not
 * at all: a temporary file, synced, then linked (a first start) or renamed (a replacement) into place.
 */
export async function loadSessionSecret(source: SessionSecretSource): Promise<SessionSecret> {
  if (source.configured !== undefined) return { secret: source.configured };
  if (source.shared !== undefined) return { secret: await source.shared(newSessionSecret()) };
  const file = join(dirname(source.emotionsFile), SESSION_SECRET_FILE);
  const kept = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
  if (kept !== undefined && kept.length >= MIN_SESSION_SECRET_LENGTH) return { secret: kept };
  const secret = newSessionSecret();
  const replaced =
    kept === undefined
      ? undefined
      : `${file} held ${kept === '' ? 'no secret (blank)' : `a secret of ${kept.length} characters, under ${MIN_SESSION_SECRET_LENGTH}`}: replaced by a new one, so the session ids issued before no longer count`;
  // A folder that cannot be made shows in the write's error.
  await mkdir(dirname(file), { recursive: true }).catch(() => undefined);
  try {
    // A first start links: two processes starting at once on one folder keep the first one's secret.
    const linked = await writeThenPlace(file, `${secret}\n`, kept === undefined ? 'link' : 'rename');
    if (!linked) return { secret: (await readFile(file, 'utf8')).trim() };
    return replaced === undefined ? { secret } : { secret, replaced };
  } catch (error) {
    return { secret, notKept: `cannot write ${file} (${(error as Error).message})`, ...(replaced === undefined ? {} : { replaced }) };
  }
}

/**
 * Writes `text` to a temporary file beside `file` (mode 0600), syncs it, then puts it in place:
 * `rename` replaces what is there; `link` does not, and resolves false when `file` exists already.
 */
async function writeThenPlace(file: string, text: string, how: 'link' | 'rename'): Promise<boolean> {
  const temp = join(dirname(file), `.${basename(file)}.tmp-${randomBytes(6).toString('hex')}`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (how === 'rename') {
      await rename(temp, file);
      return true;
    }
    await link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}
