import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * What lmdb's file must look like before it is opened: lmdb maps the file and trusts it, so a
 * truncated file or a damaged header ends the process with SIGBUS or SIGSEGV, or spins, rather
 * than failing. Its first two pages are the meta pages (the environment's two last commits): a
 * page header of 24 bytes (lmdb-js's format), then the meta itself.
 */
const PAGE_HEADER_BYTES = 24;
const META_MAGIC = 0xbeefc0de;
const META_VERSION = 2;
const P_META = 0x08;
/** lmdb's page sizes are powers of two between these. */
const MIN_PAGE = 512;
const MAX_PAGE = 65_536;

/** Offsets within a meta page (after the page header), for 64-bit builds. */
const META = { magic: 0, version: 4, pageSize: 24, lastPage: 120, txnId: 128, size: 136 } as const;

interface Meta {
  readonly pageSize: number;
  readonly lastPage: bigint;
  readonly txnId: bigint;
}

/** One meta page read, or what is wrong with it. */
function readMeta(page: Buffer, which: number): Meta | string {
  if (page.length < PAGE_HEADER_BYTES + META.size) return `meta page ${which} is cut short`;
  if ((page.readUInt16LE(18) & P_META) === 0) return `page ${which} is not a meta page`;
  const meta = page.subarray(PAGE_HEADER_BYTES);
  if (meta.readUInt32LE(META.magic) !== META_MAGIC) return `meta page ${which} has no lmdb signature`;
  if (meta.readUInt32LE(META.version) !== META_VERSION) return `meta page ${which} has an unknown version`;
  const pageSize = meta.readUInt32LE(META.pageSize);
  if (pageSize < MIN_PAGE || pageSize > MAX_PAGE || (pageSize & (pageSize - 1)) !== 0) return `meta page ${which} has no valid page size`;
  return { pageSize, lastPage: meta.readBigUInt64LE(META.lastPage), txnId: meta.readBigUInt64LE(META.txnId) };
}

/**
 * What is wrong with an lmdb data file, judged from its size and its two meta pages (pure): `size`
 * is the file's length, `head` its first bytes (at least two of its pages, when it has them).
 * Undefined when it looks whole. A file that does not exist is not judged here.
 */
export function storeFileProblem(size: number, head: Buffer): string | undefined {
  if (size === 0) return 'it is empty (0 bytes)';
  const first = readMeta(head, 0);
  if (typeof first === 'string') return first;
  const second = readMeta(head.subarray(first.pageSize, 2 * first.pageSize), 1);
  if (typeof second === 'string') return second;
  if (second.pageSize !== first.pageSize) return 'its meta pages disagree on the page size';
  // lmdb opens the newer commit: every page it names must be in the file.
  const newer = second.txnId > first.txnId ? second : first;
  const needed = (newer.lastPage + 1n) * BigInt(first.pageSize);
  if (BigInt(size) < needed) return `it is cut short: ${size} bytes where its last commit needs ${needed}`;
  return undefined;
}

/** The bytes `storeFileProblem` reads: two pages of the largest size. */
export const PROBE_BYTES = 2 * MAX_PAGE;

/**
 * Reads the head of the data file at `path` and judges it; undefined when there is no such file, or
 * it is not a file (lmdb's own open says what is wrong with that), or it looks whole.
 */
export async function probeStoreFile(path: string): Promise<string | undefined> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile()) return undefined;
    const head = Buffer.alloc(Math.min(stats.size, PROBE_BYTES));
    await file.read(head, 0, head.length, 0);
    return storeFileProblem(stats.size, head);
  } finally {
    await file.close();
  }
}

/** How long reading the whole store apart may take before it counts as damaged (a start must end within 10 s). */
export const STORE_READ_MS = 8000;

/**
 * Opens, reads whole and writes once a copy of the store at `path`, in a process of its own
 * (`store-read-child.js`): damage deep in the file, past the meta pages, makes lmdb crash or spin in
 * native code, where neither a timer nor SIGTERM reaches; a child can be killed. Undefined when it read whole; what went wrong otherwise.
 * `signal` ends the read at once (the service was told to stop meanwhile).
 */
export async function readStoreApart(path: string, signal?: AbortSignal, timeoutMs = STORE_READ_MS): Promise<string | undefined> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./store-read-child.js', import.meta.url)), path], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (said += text));
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const stop = (): void => {
    child.kill('SIGKILL');
  };
  signal?.addEventListener('abort', stop, { once: true });
  // Never left behind, spinning, by a process that ends meanwhile.
  process.once('exit', stop);
  try {
    const [code, ended] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    if (late) return `reading it did not end within ${timeoutMs / 1000} s`;
    if (signal?.aborted) return undefined;
    if (ended !== null) return `reading it crashed (${ended})`;
    if (code !== 0) return `it could not be read (${said.trim().split('\n')[0] || `status ${code}`})`;
    return undefined;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
    process.removeListener('exit', stop);
  }
}
