import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StatusReported } from '../bus/events.js';
import { EMOTION_NAMES, type AvatarShape, type Emotions } from '../emotions/emotions.js';
import { PUBLIC_DIR } from './page-renderer.js';

/** What the page's avatar module (public/assets/avatar.js) computes, used here so the face has one source. */
interface AvatarModule {
  faceOf(emotions: Emotions): { readonly mouth: string };
  faceStyle(face: object): [string, string][];
  moodWords(emotions: Emotions): string;
  avatarName(shape: AvatarShape, emotions: Emotions): string;
}

let avatarModule: Promise<AvatarModule> | undefined;
function avatar(): Promise<AvatarModule> {
  avatarModule ??= import(pathToFileURL(join(PUBLIC_DIR, 'assets', 'avatar.js')).href) as Promise<AvatarModule>;
  return avatarModule;
}

/** The page's template values for the mood it opens with, and the nonce of its one inline style. */
export interface FirstPaint {
  readonly values: Readonly<Record<string, string>>;
  readonly styleNonce: string;
}

/**
 * The page as it must first paint: the current shape, its name and mood in words, the face, the bars
 * and their numbers, all in the HTML. The face's CSS custom properties and the bars' widths go into
 * one `<style>` allowed by a nonce (the policy admits no style attribute), so nothing is drawn as a
 * Circle first and morphed once the script has asked for the mood. `status` undefined (the system
 * could not be asked in time): the still mood of a start, which the first poll replaces.
 */
export async function firstPaint(status: Pick<StatusReported, 'emotions' | 'avatarShape'> | undefined): Promise<FirstPaint> {
  const { faceOf, faceStyle, moodWords, avatarName } = await avatar();
  const emotions = status?.emotions ?? { joy: 0, sadness: 0, anger: 0, fear: 0, curiosity: 0 };
  const shape = status?.avatarShape ?? 'Circle';
  const face = faceOf(emotions);
  const values: Record<string, string> = {
    avatarShape: shape,
    avatarName: avatarName(shape, emotions),
    avatarMood: moodWords(emotions),
    mouthPath: face.mouth,
  };
  const widths: string[] = [];
  for (const name of EMOTION_NAMES) {
    const value = Math.min(1, Math.max(0, emotions[name]));
    values[`${name}Value`] = value.toFixed(2);
    values[`${name}Percent`] = String(Math.round(value * 100));
    widths.push(`#${name}-bar{width:${value * 100}%}`);
  }
  const properties = faceStyle(face)
    .map(([property, value]) => `${property}:${value}`)
    .join(';');
  values.firstPaintStyle = `#avatar{${properties}}${widths.join('')}`;
  const styleNonce = randomBytes(16).toString('base64');
  values.styleNonce = styleNonce;
  return { values, styleNonce };
}
