import { stemmer } from 'stemmer';
import Sentiment from 'sentiment';
import { eng as STOP_WORDS } from 'stopword';
import Tokenizer from 'wink-tokenizer';

/** One token of a message that the appraisal reads: the word as written (lowercased) and the key it is counted under. */
export interface ReadToken {
  /** As the person wrote it, lowercased: what `cues` shows. */
  readonly word: string;
  /** The feature it counts as: a word's Porter stem ("terrified" → "terrifi"), an emoji or emoticon as is. */
  readonly key: string;
  /** Punctuation that carries tone ("!", "?"): counted, never shown as a cue. */
  readonly mark: boolean;
}

// wink-tokenizer tags each token (word, emoji, emoticon, punctuation, url, …), which a regular
// expression would not: ":(" and "😡" are read, "[NAME]"'s brackets and URLs are not.
const tokenizer = new Tokenizer();
const TONE_MARKS = new Set(['!', '?']);

/** The longest run of non-space characters read, in code points: longer than any English word. */
export const MAX_RUN = 48;
const LONG_RUN = new RegExp(`(\\S{${MAX_RUN}})\\S+`, 'gu');

/**
 * `text` with every run of non-space characters cut to its first {@link MAX_RUN} code points. The
 * tokenizer's work grows faster than linearly with a run's length (4,000 `!` took 0.4 s); a run
 * longer than a word carries nothing more, so reading stays linear in the message.
 */
export function cutLongRuns(text: string): string {
  return text.replace(LONG_RUN, '$1');
}

/** The tokens of `text` the appraisal reads, in order. Pure and deterministic; linear in `text`'s length. */
export function readTokens(text: string): ReadToken[] {
  const tokens: ReadToken[] = [];
  for (const { value, tag } of tokenizer.tokenize(cutLongRuns(text).toLowerCase())) {
    if (tag === 'word' || tag === 'number') {
      // The tokenizer splits "don't" into "do" and "n't": the negation is one word, "not".
      const word = value === "n't" ? 'not' : value;
      tokens.push({ word, key: stemmer(word), mark: false });
    } else if (tag === 'emoji' || tag === 'emoticon') {
      tokens.push({ word: value, key: value, mark: false });
    } else if (tag === 'punctuation' && TONE_MARKS.has(value)) {
      tokens.push({ word: value, key: value, mark: true });
    }
  }
  return tokens;
}

const STOP = new Set(STOP_WORDS);
// A closed class, small enough to spell out: numbers say how much, not what was felt.
const NUMBER_WORDS = new Set(
  (
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen ' +
    'nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion trillion dozen ' +
    'first second third fourth fifth sixth seventh eighth ninth tenth once twice thrice half'
  ).split(' '),
);

/**
 * Whether a word of the message may be shown as a cue: a word that carries meaning, not a stop word
 * (the `stopword` package's English list), a number or number word, nor punctuation: it holds
 * a letter or an emoji, and no digit.
 */
export function mayCue(word: string): boolean {
  return !STOP.has(word) && !NUMBER_WORDS.has(word) && !/\p{N}/u.test(word) && /[\p{L}\p{Extended_Pictographic}]/u.test(word);
}

/** The key of the word pair `a b`: pairs carry what single words cannot ("not happi", "so sorri"). */
export function pairKey(a: ReadToken, b: ReadToken): string {
  return `${a.key} ${b.key}`;
}

/** One weight of the AFINN lexicon found in a message, and the words (lowercased) that carry it. */
export interface LexiconHit {
  /** `afinn:-3`: every word of that weight shares the feature. */
  readonly key: string;
  readonly words: readonly string[];
}

const afinn = new Sentiment();

/**
 * The message's AFINN-165 weights as features (the `sentiment` package's lexicon and negation: "not
 * good" carries −3). A word GoEmotions holds too few times to weigh on its own ("furious": 9 comments,
 * mixed labels) still counts through the weight it shares with common words of its kind.
 */
export function lexiconHits(text: string): LexiconHit[] {
  const hits = new Map<string, string[]>();
  for (const entry of afinn.analyze(cutLongRuns(text)).calculation) {
    for (const [word, weight] of Object.entries(entry)) {
      const key = `afinn:${weight}`;
      hits.set(key, [...(hits.get(key) ?? []), word.toLowerCase()]);
    }
  }
  return [...hits].map(([key, words]) => ({ key, words }));
}

/** Every distinct feature of `text`: its tokens' keys, the keys of adjacent pairs, and its lexicon weights. */
export function featuresOf(text: string): string[] {
  const tokens = readTokens(text);
  const features = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    features.add(tokens[i]!.key);
    if (i + 1 < tokens.length) features.add(pairKey(tokens[i]!, tokens[i + 1]!));
  }
  for (const { key } of lexiconHits(text)) features.add(key);
  return [...features];
}
