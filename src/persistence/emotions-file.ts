import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { readFile, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AVATAR_SHAPES, SENTIMENT_LABELS, emotionRecord, type Sentiment } from '../emotions/emotions.js';
import type { EmotionState } from '../emotions/state.js';

/** The file layout's version; a reader refuses any other. */
export const EMOTIONS_FILE_VERSION = 1;

/**
 * `emotions.json`, version 1:
 * `{ "version": 1, "emotions": { joy, sadness, anger, fear, curiosity }, "avatar": { "shape",
 * "sentiment": { "sentiment", "positive", "negative" }, "lastUpdated" } }`. Unrounded numbers and
 * labels only; never user text.
 */
export interface EmotionsFile {
  readonly version: typeof EMOTIONS_FILE_VERSION;
  readonly emotions: EmotionState['emotions'];
  readonly avatar: {
    readonly shape: EmotionState['avatarShape'];
    readonly sentiment: Sentiment;
    readonly lastUpdated: string;
  };
}

/** The emotions file exists but cannot be used; the message names the file and the problem. */
export class EmotionsFileError extends Error {
  override readonly name = 'EmotionsFileError';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`emotions file ${file}: ${reason}`);
  }
}

/**
 * The file's fields, each named: a state folded from an event log (`hub replay`) may carry keys a
 * log line added to its objects, and none of them is copied.
 */
export function toEmotionsFile(state: EmotionState): EmotionsFile {
  const { sentiment, positive, negative } = state.sentiment;
  return {
    version: EMOTIONS_FILE_VERSION,
    emotions: emotionRecord((name) => state.emotions[name]),
    avatar: { shape: state.avatarShape, sentiment: { sentiment, positive, negative }, lastUpdated: state.lastUpdated },
  };
}

/** The file's text: what a write puts on disk and what `hub replay` prints. */
export function serializeState(state: EmotionState): string {
  return `${JSON.stringify(toEmotionsFile(state), null, 2)}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unit(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new Error(`${where} must be a number from 0 to 1`);
  }
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string): T {
  if (!allowed.includes(value as T)) throw new Error(`${where} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** Checks a parsed file against the version 1 layout; throws a plain Error saying what is wrong. */
function validate(value: unknown): EmotionState {
  if (!isRecord(value)) throw new Error('not a JSON object');
  if (value.version !== EMOTIONS_FILE_VERSION) throw new Error(`unsupported version ${JSON.stringify(value.version)}`);
  const { emotions, avatar } = value;
  if (!isRecord(emotions)) throw new Error('"emotions" must be an object');
  if (!isRecord(avatar)) throw new Error('"avatar" must be an object');
  const sentiment = avatar.sentiment;
  if (!isRecord(sentiment)) throw new Error('"avatar.sentiment" must be an object');
  const lastUpdated = avatar.lastUpdated;
  if (typeof lastUpdated !== 'string' || Number.isNaN(Date.parse(lastUpdated))) {
    throw new Error('"avatar.lastUpdated" must be an ISO 8601 time');
  }
  return {
    emotions: emotionRecord((name) => unit(emotions[name], `"emotions.${name}"`)),
    avatarShape: oneOf(avatar.shape, AVATAR_SHAPES, '"avatar.shape"'),
    sentiment: {
      sentiment: oneOf(sentiment.sentiment, SENTIMENT_LABELS, '"avatar.sentiment.sentiment"'),
      positive: unit(sentiment.positive, '"avatar.sentiment.positive"'),
      negative: unit(sentiment.negative, '"avatar.sentiment.negative"'),
    },
    lastUpdated,
  };
}

/** Parses the file's text; throws EmotionsFileError naming `file`. */
export function parseEmotionsFile(file: string, text: string): EmotionState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EmotionsFileError(file, `not valid JSON (${(error as Error).message}); fix or remove it`);
  }
  try {
    return validate(value);
  } catch (error) {
    throw new EmotionsFileError(file, `${(error as Error).message}; fix or remove it`);
  }
}

/** Reads the persisted state; undefined when the file does not exist. Never modifies the file. */
export async function loadEmotionsFile(file: string): Promise<EmotionState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new EmotionsFileError(file, `cannot be read (${(error as Error).message})`);
  }
  return parseEmotionsFile(file, text);
}

function tempPrefix(file: string): string {
  return `${basename(file)}.tmp-`;
}

/**
 * Deletes the temporary files a killed process left beside `file` (a kill between writing one and
 * renaming it over the file). They were never the state: the file itself is whole either way.
 * Called before this process writes, so only other processes' leftovers are removed; returns their names.
 */
export async function removeStaleTempFiles(file: string): Promise<string[]> {
  const ours = `${tempPrefix(file)}${process.pid}-`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  const stale = names.filter((name) => name.startsWith(tempPrefix(file)) && !name.startsWith(ours));
  await Promise.all(stale.map((name) => unlink(join(dirname(file), name)).catch(() => undefined)));
  return stale;
}

/** The file calls a write makes: Node's, or a test's that fail or stall as a full or read-only disk does. */
export type FileWrites = Pick<typeof fs, 'open' | 'rename' | 'unlink'>;

/**
 * Replaces the file atomically: the text goes to a temporary file in the same directory, is
 * fsynced, then renamed over the target, so a crash leaves either the old or the new file whole.
 */
export async function writeEmotionsFile(file: string, state: EmotionState, { open, rename, unlink }: FileWrites = fs): Promise<void> {
  const temp = join(dirname(file), `${tempPrefix(file)}${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const handle = await open(temp, 'w', 0o644);
    try {
      await handle.writeFile(serializeState(state), 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
