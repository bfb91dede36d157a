import type { AvatarShape, Emotions } from './emotions.js';

/**
 * The shape rule, after docs/specification.md: Triangle for "high energy or active emotions", Square for "stable
 * or grounded", Circle for "default or neutral". Joy, anger and curiosity are the active emotions
 * (they reach out); sadness and fear weigh the mood down (they withdraw). So:
 *
 * - Triangle: an active emotion is strong and outweighs sadness and fear;
 * - Square: sadness or fear is strong and outweighs the active ones (held down, guarded), or
 *   nothing is stirring at all (calm, still);
 * - Circle: in between, the default mood among them.
 *
 * Entering a shape takes a clear crossing; leaving it takes falling back past a second threshold,
 * so tiny changes near a boundary (a drift tick) do not flicker the avatar.
 */
export const SHAPE_THRESHOLDS = {
  /** Active energy at or above which the avatar becomes a Triangle (when it outweighs the weight)… */
  triangleEnter: 0.7,
  /** …and below which a Triangle stops being one. */
  triangleExit: 0.6,
  /** Weight (sadness or fear) at or above which the avatar becomes a Square (when it outweighs the energy)… */
  squareEnter: 0.6,
  /** …and below which a Square stops being one. */
  squareExit: 0.5,
  /** Active energy at or below which the mood is still: a Square too… */
  stillEnter: 0.25,
  /** …until it rises above this. */
  stillExit: 0.35,
  /** How far the other side may get ahead before a shape that holds gives way. */
  lead: 0.1,
} as const;

/** The strongest active emotion: max(joy, anger, curiosity). */
export function energyOf(emotions: Emotions): number {
  return Math.max(emotions.joy, emotions.anger, emotions.curiosity);
}

/** The strongest withdrawing emotion: max(sadness, fear). */
export function weightOf(emotions: Emotions): number {
  return Math.max(emotions.sadness, emotions.fear);
}

/** The shape for `emotions`, given the shape shown before (hysteresis). */
export function chooseShape(emotions: Emotions, previous: AvatarShape): AvatarShape {
  const energy = energyOf(emotions);
  const weight = weightOf(emotions);
  const t = SHAPE_THRESHOLDS;
  if (previous === 'Triangle' && energy >= t.triangleExit && weight < energy + t.lead) return 'Triangle';
  if (previous === 'Square' && ((weight >= t.squareExit && energy < weight + t.lead) || energy <= t.stillExit)) return 'Square';
  if (energy >= t.triangleEnter && energy > weight) return 'Triangle';
  if ((weight >= t.squareEnter && weight >= energy) || energy <= t.stillEnter) return 'Square';
  return 'Circle';
}
