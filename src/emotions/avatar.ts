import type { AvatarShape, Emotions } from './emotions.js';

/**
 * The shape rule. Energy is the strongest active emotion, max(joy, anger, fear, curiosity):
 * Triangle when it is high (lively, aroused), Square when it is low (calm, grounded, or sad without
 * agitation), Circle in between. Entering a shape takes a clear crossing; leaving it takes falling
 * back past a second threshold, so tiny changes near a boundary do not flicker the avatar.
 */
export const SHAPE_THRESHOLDS = {
  /** Energy at or above which the avatar becomes a Triangle… */
  triangleEnter: 0.7,
  /** …and below which a Triangle stops being one. */
  triangleExit: 0.6,
  /** Energy at or below which the avatar becomes a Square… */
  squareEnter: 0.25,
  /** …and above which a Square stops being one. */
  squareExit: 0.35,
} as const;

export function energyOf(emotions: Emotions): number {
  return Math.max(emotions.joy, emotions.anger, emotions.fear, emotions.curiosity);
}

/** The shape for `emotions`, given the shape shown before (hysteresis). */
export function chooseShape(emotions: Emotions, previous: AvatarShape): AvatarShape {
  const energy = energyOf(emotions);
  const t = SHAPE_THRESHOLDS;
  if (previous === 'Triangle' && energy >= t.triangleExit) return 'Triangle';
  if (previous === 'Square' && energy <= t.squareExit) return 'Square';
  if (energy >= t.triangleEnter) return 'Triangle';
  if (energy <= t.squareEnter) return 'Square';
  return 'Circle';
}
