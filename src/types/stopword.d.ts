// stopword 3.1.5 ships no types; the part this package uses: the English list.
declare module 'stopword' {
  /** English stop words, lowercased. */
  export const eng: readonly string[];
}
