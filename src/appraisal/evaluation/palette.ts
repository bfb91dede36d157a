import { EMOTION_NAMES, type EmotionName } from '../../emotions/emotions.js';

/** The page's stylesheet, whose `--joy`, `--sadness`, … colour the mood bars. */
export const PAGE_STYLE_URL = new URL('../../../public/assets/style.css', import.meta.url);

/** Each emotion's bar colour, read from the page's stylesheet so that a chart and the page cannot drift apart. */
export function emotionColours(css: string): Record<EmotionName, string> {
  const colours = {} as Record<EmotionName, string>;
  for (const name of EMOTION_NAMES) {
    const colour = new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{3,8})\\s*;`).exec(css)?.[1];
    if (colour === undefined) throw new Error(`the stylesheet sets no hex colour for --${name}`);
    colours[name] = colour.toLowerCase();
  }
  return colours;
}
