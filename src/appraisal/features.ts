import { stemmer } from 'stemmer';
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

/** The tokens of `text` the appraisal reads, in order. Pure and deterministic. */
export function readTokens(text: string): ReadToken[] {
  const tokens: ReadToken[] = [];
  for (const { value, tag } of tokenizer.tokenize(text.toLowerCase())) {
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

/** The key of the word pair `a b`: pairs carry what single words cannot ("not happi", "so sorri"). */
export function pairKey(a: ReadToken, b: ReadToken): string {
  return `${a.key} ${b.key}`;
}

/** Every distinct feature of `text`: its tokens' keys and the keys of adjacent pairs. */
export function featuresOf(text: string): string[] {
  return featuresOfTokens(readTokens(text));
}

export function featuresOfTokens(tokens: readonly ReadToken[]): string[] {
  const features = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    features.add(tokens[i]!.key);
    if (i + 1 < tokens.length) features.add(pairKey(tokens[i]!, tokens[i + 1]!));
  }
  return [...features];
}
