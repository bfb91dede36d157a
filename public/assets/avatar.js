// The avatar: the shape of docs/specification.md#resources as the body, the five emotions drawn on it as a face. The numbers
// become a handful of capped features (mouth, brows, eyes, gaze, tilt, colour, pace); CSS eases
// them (0.45 s, from wherever they are) and keeps the idle breathing and blinking going, and holds
// everything still under prefers-reduced-motion. Pure functions first, the DOM last: the page's
// 'mood' and 'activity' events drive it (mountAvatar).
const EMOTIONS = ['joy', 'sadness', 'anger', 'fear', 'curiosity'];
const SHAPES = ['Circle', 'Triangle', 'Square'];
const ACTIVITIES = ['idle', 'thinking', 'speaking'];

/** The bars' colours (style.css), blended into the body's. */
const COLOURS = {
  joy: [242, 183, 5],
  sadness: [61, 125, 216],
  anger: [214, 69, 69],
  fear: [132, 85, 199],
  curiosity: [31, 157, 122],
};
/** A grey-blue that a weak mood fades towards. */
const NEUTRAL = [138, 147, 168];
const NEUTRAL_WEIGHT = 0.06;

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
const round = (value, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

function values(emotions) {
  const read = (name) => {
    const number = Number(emotions?.[name]);
    return Number.isFinite(number) ? clamp(number, 0, 1) : 0;
  };
  return { joy: read('joy'), sadness: read('sadness'), anger: read('anger'), fear: read('fear'), curiosity: read('curiosity') };
}

/** The body's colour: the emotions' colours weighted by their cubes (the strong ones show), over a neutral. */
export function bodyColour(emotions) {
  const v = values(emotions);
  const mix = NEUTRAL.map((channel) => channel * NEUTRAL_WEIGHT);
  let total = NEUTRAL_WEIGHT;
  for (const name of EMOTIONS) {
    const weight = v[name] ** 3;
    total += weight;
    COLOURS[name].forEach((channel, i) => {
      mix[i] += channel * weight;
    });
  }
  const [r, g, b] = mix.map((channel) => Math.round(channel / total));
  return `rgb(${r}, ${g}, ${b})`;
}

/** The mouth: a closed path between an upper and a lower lip; equal lips are a line. */
function mouthPath(halfWidth, curve, open) {
  const y = 78 - curve / 2; // keeps the mouth's middle in place as it curves
  const left = 60 - halfWidth;
  const right = 60 + halfWidth;
  const upper = y + 2 * curve;
  const lower = upper + 2 * open;
  return `M${round(left, 1)} ${round(y, 1)} Q60 ${round(upper, 1)} ${round(right, 1)} ${round(y, 1)} Q60 ${round(lower, 1)} ${round(left, 1)} ${round(y, 1)} Z`;
}

/**
 * The face for a mood, every feature capped so that no mood looks grotesque:
 * - mouth: curve from joy against sadness (a smile to a frown), opening from joy, fear and curiosity;
 * - brows: inner ends down with anger, up with fear and sadness; raised by fear and curiosity
 *   (the right one more: the questioning brow);
 * - eyes: wide with fear and curiosity, narrowed by sadness and anger; pupils small with fear;
 * - gaze: to the side with curiosity, down with sadness; head tilt from curiosity; a tear when very sad, cheeks flushed when very joyful;
 * - pace: breathing and blinking quicken with arousal, the strongest of anger, fear and curiosity.
 */
export function faceOf(emotions) {
  const { joy, sadness, anger, fear, curiosity } = values(emotions);
  const valence = clamp(1.4 * (joy - sadness) - 0.5 * anger, -1, 1);
  const open = clamp(1.5 * fear + 0.6 * curiosity + 0.8 * joy - 0.5 * sadness - 0.6 * anger - 0.6, 0, 1);
  const inner = clamp(1.5 * anger - 0.9 * fear - 0.8 * sadness, -1, 1); // > 0: a frown of anger; < 0: worry
  const raise = clamp(6 * fear + 3 * curiosity - 3 * anger - 1.5, -3, 6);
  const arousal = Math.max(anger, fear, curiosity);
  return {
    mouth: mouthPath(clamp(13 + 5 * joy - 6 * fear, 7, 18), 6.5 * valence, 8 * open),
    browLeft: { angle: round(20 * inner), lift: round(-raise) },
    browRight: { angle: round(-20 * inner + 8 * curiosity * (1 - anger)), lift: round(-raise - 3 * curiosity) },
    eyeOpen: round(clamp(0.8 + 0.45 * fear + 0.25 * curiosity - 0.4 * sadness - 0.35 * anger - 0.15 * joy, 0.4, 1.2)),
    pupil: round(clamp(1.1 - 0.45 * fear, 0.6, 1.1)),
    gaze: { x: round(clamp(4 * (curiosity - 0.3), 0, 2.5)), y: round(clamp(2.5 * sadness - 1.5 * fear - 0.5, -1.5, 2)) },
    tilt: round(clamp(16 * (curiosity - 0.35), 0, 10)),
    tear: round(clamp(4 * (sadness - 0.6) - 2 * joy, 0, 1)),
    blush: round(clamp(2.5 * (joy - 0.55) - sadness - anger, 0, 0.7)),
    colour: bodyColour(emotions),
    // Quantised so that drift does not keep restarting the animations' timing.
    breathSeconds: round(5 - 2.5 * round(arousal, 1), 1),
    blinkSeconds: round(6 - 3.5 * round(arousal, 1), 1),
    aroused: arousal >= 0.6,
  };
}

/** The emotions named as the bars name them, strongest first: "mostly sadness, some anger". */
export function moodWords(emotions) {
  const v = values(emotions);
  const ranked = EMOTIONS.map((name) => [name, v[name]]).sort((a, b) => b[1] - a[1]);
  const [[first, top], [second, next], [third, last]] = ranked;
  if (top < 0.25) return 'calm, no strong emotion';
  const lead = next >= 0.25 && top - next < 0.03 ? `mostly ${first} and ${second}` : `mostly ${first}`;
  const rest = lead.includes(' and ') ? [[third, last]] : [[second, next]];
  const some = rest.filter(([, value]) => value >= 0.25).map(([name]) => `some ${name}`);
  return [lead, ...some].join(', ');
}

/** The avatar's accessible name: "Square, mostly sadness, some anger". */
export function avatarName(shape, emotions) {
  return `${knownShape(shape)}, ${moodWords(emotions)}`;
}

function knownShape(shape) {
  return SHAPES.includes(shape) ? shape : 'Circle';
}

/** The face as the CSS custom properties style.css draws it from: `[property, value]` pairs. */
export function faceStyle(face) {
  return [
    ['--body', face.colour],
    ['--brow-left-angle', `${face.browLeft.angle}deg`],
    ['--brow-left-lift', `${face.browLeft.lift}px`],
    ['--brow-right-angle', `${face.browRight.angle}deg`],
    ['--brow-right-lift', `${face.browRight.lift}px`],
    ['--eye-open', String(face.eyeOpen)],
    ['--pupil', String(face.pupil)],
    ['--gaze-x', `${face.gaze.x}px`],
    ['--gaze-y', `${face.gaze.y}px`],
    ['--tilt', `${face.tilt}deg`],
    ['--tear', String(face.tear)],
    ['--blush', String(face.blush)],
    ['--breath', `${face.breathSeconds}s`],
    ['--blink', `${face.blinkSeconds}s`],
  ];
}

// The DOM: found when first drawn, so the functions above load anywhere (the service renders the
// first paint with them too: src/http/first-paint.ts).
const byId = (id) => document.getElementById(id);

/** Draws the shape and the face of a `GET /api/avatar` or chat reply body (`avatar_shape`, `emotions`). */
export function drawAvatar(body) {
  const svg = byId('avatar');
  if (!svg || !body?.emotions) return;
  const shape = knownShape(body.avatar_shape);
  const face = faceOf(body.emotions);
  const name = avatarName(shape, body.emotions);
  svg.dataset.shape = shape;
  svg.dataset.aroused = String(face.aroused);
  svg.setAttribute('aria-label', name);
  byId('avatar-shape').textContent = shape;
  byId('avatar-mood').textContent = moodWords(body.emotions);
  for (const [property, value] of faceStyle(face)) svg.style.setProperty(property, value);
  const mouth = svg.querySelector('.mouth-shape');
  // The attribute for browsers without the CSS `d` property; the style is what eases in the others.
  mouth.setAttribute('d', face.mouth);
  mouth.style.setProperty('d', `path("${face.mouth}")`);
}

/** 'thinking' while a reply is pending, 'speaking' while it streams, 'idle' otherwise. */
export function setAvatarActivity(activity) {
  const svg = byId('avatar');
  if (!svg) return;
  const known = ACTIVITIES.includes(activity) ? activity : 'idle';
  svg.dataset.activity = known;
  byId('avatar-figure').setAttribute('aria-busy', String(known !== 'idle'));
  byId('avatar-activity').textContent = { idle: '', thinking: 'Thinking…', speaking: 'Speaking…' }[known];
}

/** Draws every 'mood' and follows every 'activity'; the page's body says the activity too. */
export function mountAvatar(bus) {
  bus.on('mood', drawAvatar);
  bus.on('activity', (activity) => {
    document.body.dataset.activity = activity;
    setAvatarActivity(activity);
  });
}
