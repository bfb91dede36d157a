import t from 'tap';
import { readFileSync } from 'node:fs';
import { EMOTION_NAMES, type Emotions } from '../../src/emotions/emotions.js';
import { FIVE_MOODS, mood } from '../support/moods.js';

// The page's avatar module (public/assets/avatar.js): its pure part, in Node. The browser tests
// check that the page draws what these functions decide.
const avatar = await import(new URL('../../public/assets/avatar.js', import.meta.url).href);

type Mood = Emotions;
const FIVE: Record<string, Mood> = FIVE_MOODS;

const mouthCurve = (face: any) => {
  // M left y Q 60 upper right y …: the upper lip's control point below the corners is a smile.
  const [, y, upper] = /^M[\d.]+ ([\d.]+) Q60 ([\d.]+)/.exec(face.mouth)!.map(Number);
  return upper! - y!;
};

t.test('each emotion shows in its own features', (t) => {
  const face = Object.fromEntries(Object.entries(FIVE).map(([name, emotions]) => [name, avatar.faceOf(emotions)]));
  t.ok(mouthCurve(face.joy) > 8, `joy smiles (${face.joy.mouth})`);
  t.ok(mouthCurve(face.sadness) < -8, `sadness frowns (${face.sadness.mouth})`);
  t.ok(face.sadness.tear > 0.5, 'sadness sheds a tear');
  t.ok(face.anger.browLeft.angle > 15 && face.anger.browRight.angle < -15, 'anger draws the inner brows down');
  t.ok(face.fear.browLeft.angle < 0 && face.fear.browLeft.lift < -2, 'fear raises the brows, inner ends up');
  t.ok(face.fear.eyeOpen > 1, 'fear opens the eyes wide');
  t.ok(face.fear.pupil < 0.8, 'with small pupils');
  t.ok(face.curiosity.tilt >= 8, 'curiosity tilts the head');
  t.ok(face.curiosity.gaze.x >= 2, 'and looks aside');
  t.ok(face.curiosity.browRight.lift < face.curiosity.browLeft.lift, 'with one brow raised');
  t.ok(face.anger.eyeOpen < face.joy.eyeOpen && face.sadness.eyeOpen < face.curiosity.eyeOpen, 'anger and sadness narrow the eyes');
  const colours = new Set(Object.values(face).map((f: any) => f.colour));
  t.equal(colours.size, 5, `five colours: ${[...colours].join(' ')}`);
  t.end();
});

t.test('the colour is a blend: the strongest emotion tints it most', (t) => {
  const channels = (colour: string) => colour.match(/\d+/g)!.map(Number);
  const [r, g, b] = channels(avatar.bodyColour(FIVE.anger));
  t.ok(r! > 150 && g! < 100 && b! < 100, `anger is red: ${avatar.bodyColour(FIVE.anger)}`);
  const [, , blue] = channels(avatar.bodyColour(FIVE.sadness));
  t.ok(blue! > 180, `sadness is blue: ${avatar.bodyColour(FIVE.sadness)}`);
  const mixed = channels(avatar.bodyColour(mood(0.1, 0.8, 0.8, 0.1, 0.1)));
  const red = channels(avatar.bodyColour(mood(0.1, 0.1, 0.8, 0.1, 0.1)));
  t.ok(mixed[2]! > red[2]! + 40, 'sadness with anger is bluer than anger alone');
  t.end();
});

t.test("a mood of one emotion alone is that emotion's bar colour (style.css), nearer it than any other", (t) => {
  const style = readFileSync(new URL('../../public/assets/style.css', import.meta.url), 'utf8');
  const bar = (name: string) => {
    const hex = new RegExp(`--${name}:\\s*#([0-9a-f]{6})`, 'i').exec(style)![1]!;
    return [0, 2, 4].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  };
  const distance = (a: number[], b: number[]) => Math.hypot(...a.map((channel, i) => channel - b[i]!));
  for (const name of EMOTION_NAMES) {
    const alone = mood(0, 0, 0, 0, 0);
    const body = avatar
      .bodyColour({ ...alone, [name]: 1 })
      .match(/\d+/g)!
      .map(Number);
    const nearest = [...EMOTION_NAMES].sort((a, b) => distance(body, bar(a)) - distance(body, bar(b)))[0];
    t.equal(nearest, name, `${name} alone: ${avatar.bodyColour({ ...alone, [name]: 1 })}`);
    // Only the faint neutral under it (6%) moves it off the bar's own colour.
    t.ok(distance(body, bar(name)) < 12, `${name} alone is its bar's colour, within the neutral's tint`);
  }
  t.end();
});

t.test('a mixed mood mixes the features', (t) => {
  const angry = avatar.faceOf(mood(0.1, 0.1, 0.85, 0.1, 0.1));
  const sadAngry = avatar.faceOf(mood(0.1, 0.83, 0.79, 0.2, 0.15));
  const sad = avatar.faceOf(mood(0.1, 0.85, 0.1, 0.2, 0.15));
  t.ok(sadAngry.browLeft.angle < angry.browLeft.angle && sadAngry.browLeft.angle > sad.browLeft.angle, 'brows between anger and sadness');
  t.not(sadAngry.colour, angry.colour);
  t.not(sadAngry.colour, sad.colour);
  t.end();
});

t.test('every feature is capped, whatever the numbers (nothing grotesque, nothing broken)', (t) => {
  const extremes = [
    mood(0, 0, 0, 0, 0),
    mood(1, 1, 1, 1, 1),
    mood(1, 0, 0, 0, 0),
    mood(0, 1, 0, 0, 0),
    mood(0, 0, 1, 0, 0),
    mood(0, 0, 0, 1, 1),
  ];
  let seed = 5;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (let i = 0; i < 200; i++) extremes.push(mood(random(), random(), random(), random(), random()));
  extremes.push({ joy: Number.NaN, sadness: 7, anger: -3, fear: 'x', curiosity: undefined } as unknown as Mood);
  for (const emotions of extremes) {
    const face = avatar.faceOf(emotions);
    const numbers = [
      face.browLeft.angle,
      face.browLeft.lift,
      face.browRight.angle,
      face.browRight.lift,
      face.eyeOpen,
      face.pupil,
      face.tilt,
      face.tear,
    ];
    if (!numbers.every(Number.isFinite)) t.fail(`finite features for ${JSON.stringify(emotions)}`);
    const ok =
      Math.abs(face.browLeft.angle) <= 20 &&
      Math.abs(face.browRight.angle) <= 28 &&
      face.eyeOpen >= 0.4 &&
      face.eyeOpen <= 1.2 &&
      face.tilt >= 0 &&
      face.tilt <= 10 &&
      face.tear >= 0 &&
      face.tear <= 1 &&
      Math.abs(mouthCurve(face)) <= 13.1 &&
      face.breathSeconds >= 2.5 &&
      face.breathSeconds <= 5 &&
      /^M[\d. QZ]+$/.test(face.mouth);
    if (!ok) t.fail(`capped features for ${JSON.stringify(emotions)}: ${JSON.stringify(face)}`);
  }
  t.pass(`${extremes.length} moods stay within the caps`);
  t.end();
});

t.test('breathing and blinking quicken with arousal (anger, fear, curiosity)', (t) => {
  const calm = avatar.faceOf(mood(0.5, 0.2, 0.1, 0.1, 0.2));
  for (const name of ['anger', 'fear', 'curiosity']) {
    const aroused = avatar.faceOf(FIVE[name]);
    t.ok(aroused.breathSeconds < calm.breathSeconds - 1, `${name}: breath ${aroused.breathSeconds}s < ${calm.breathSeconds}s`);
    t.ok(aroused.blinkSeconds < calm.blinkSeconds - 1, `${name}: blink every ${aroused.blinkSeconds}s < ${calm.blinkSeconds}s`);
  }
  t.end();
});

t.test('the accessible name says the mood in words, as the bars name the emotions', (t) => {
  t.equal(avatar.avatarName('Square', mood(0.1, 0.83, 0.79, 0.2, 0.15)), 'Square, mostly sadness, some anger');
  t.equal(avatar.avatarName('Triangle', FIVE.joy), 'Triangle, mostly joy, some curiosity');
  t.equal(avatar.avatarName('Circle', mood(0.5, 0.2, 0.1, 0.1, 0.5)), 'Circle, mostly joy and curiosity');
  t.equal(avatar.avatarName('Square', mood(0.2, 0.15, 0.05, 0.05, 0.2)), 'Square, calm, no strong emotion');
  t.equal(avatar.avatarName('Hexagon', FIVE.fear), 'Circle, mostly fear', 'an unknown shape is drawn as a Circle');
  t.end();
});

t.test('the caption names only emotions that are high: a sad face with a trace of anger is not "some anger"', (t) => {
  t.equal(avatar.moodWords(mood(0.15, 0.9, 0.39, 0.1, 0.2)), 'mostly sadness');
  t.equal(avatar.moodWords(mood(0.15, 0.9, avatar.NAMED_FROM, 0.1, 0.2)), 'mostly sadness, some anger');
  t.end();
});
