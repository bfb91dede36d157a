import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { EMOTION_NAMES, type EmotionName, type Emotions } from '../../../src/emotions/emotions.js';
import { defaultState } from '../../../src/emotions/state.js';
import { writeEmotionsFile } from '../../../src/persistence/emotions-file.js';
import { readyApp, START } from '../../support/harness.js';
import { mood } from '../../support/moods.js';
import { testDir } from '../../support/test-dir.js';

type App = Awaited<ReturnType<typeof readyApp>>['app'];

// What a person types to make the avatar feel one thing, read by the shipped appraisal (the same
// messages make docs/avatar.md's pictures: scripts/avatar-screenshots.mjs).
const RUNS = JSON.parse(readFileSync(new URL('../../fixtures/chat-messages.json', import.meta.url), 'utf8')) as Record<
  EmotionName,
  readonly string[]
>;

async function say(t: Test, app: App, message: string): Promise<{ avatar_shape: string; emotions: Emotions }> {
  const response = await app.inject({ method: 'POST', url: '/api/chat', payload: { message } });
  t.equal(response.statusCode, 200, message);
  return response.json();
}

const strongestOf = (emotions: Emotions): EmotionName => EMOTION_NAMES.reduce((a, b) => (emotions[b] > emotions[a] ? b : a));

for (const emotion of EMOTION_NAMES) {
  t.test(`from the default mood, four messages that express ${emotion} make it the strongest`, async (t) => {
    const { app } = await readyApp(t);
    let body: { emotions: Emotions } | undefined;
    for (const message of RUNS[emotion]) body = await say(t, app, message);
    t.equal(strongestOf(body!.emotions), emotion, JSON.stringify(body!.emotions));
  });
}

t.test('after a joyful Triangle, a run of sad messages leaves the Triangle', async (t) => {
  const { app } = await readyApp(t);
  let body = { avatar_shape: '' };
  for (const message of [...RUNS.joy, ...RUNS.joy]) body = await say(t, app, message);
  t.equal(body.avatar_shape, 'Triangle');
  for (const message of RUNS.sadness) body = await say(t, app, message);
  t.not(body.avatar_shape, 'Triangle');
});

t.test('GET /api/mood/why: from plus the deltas is the mood, chats say their strongest emotion, no message text', async (t) => {
  const { app } = await readyApp(t);
  const before = (await app.inject('/api/mood/why')).json();
  const zero = { drift: 0, messages: 0 };
  t.same(
    before,
    {
      from: before.emotions,
      changes: [],
      emotions: before.emotions,
      totals: { joy: zero, sadness: zero, anger: zero, fear: zero, curiosity: zero },
    },
    'nothing has moved it yet',
  );
  // (A drift tick's change is in the browser test and the journal's own test.)
  await say(t, app, 'I am terrified of spiders');
  await say(t, app, 'I hate waiting, it is outrageous');
  const response = await app.inject('/api/mood/why');
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^application\/json/);
  const why = response.json();
  t.same(
    why.changes.map(({ kind, strongest }: { kind: string; strongest?: string }) => [kind, strongest]),
    [
      ['chat', 'fear'],
      ['chat', 'anger'],
    ],
  );
  for (const change of why.changes) {
    t.same(Object.keys(change).sort(), change.kind === 'chat' ? ['at', 'delta', 'kind', 'source', 'strongest'] : ['at', 'delta', 'kind']);
    if (change.kind === 'chat') t.equal(change.source, 'local', 'read by the local model (APPRAISAL=local)');
    t.equal(new Date(change.at).toISOString(), change.at);
  }
  for (const name of EMOTION_NAMES) {
    const sum = why.changes.reduce((total: number, change: { delta: Emotions }) => total + change.delta[name], why.from[name]);
    t.ok(Math.abs(sum - why.emotions[name]) < 1e-9, `${name}: from + Σ delta = ${sum}, emotions ${why.emotions[name]}`);
    const messages = why.changes.reduce((total: number, change: { delta: Emotions }) => total + change.delta[name], 0);
    t.same(why.totals[name], { drift: 0, messages: Math.round(messages * 1e4) / 1e4 }, `${name}: the messages' total, to 4 places`);
  }
  const avatar = (await app.inject('/api/avatar')).json();
  t.same(
    avatar.emotions,
    Object.fromEntries(EMOTION_NAMES.map((name) => [name, Math.round(why.emotions[name] * 100) / 100])),
    'the current mood',
  );
  t.notMatch(response.body, /spider|waiting|outrageous|terrified/i, 'no word of anyone’s message');
});

t.test('after a restart from a saved mood that is not the default, GET /api/mood/why starts from that mood', async (t) => {
  const dir = testDir(t);
  const saved = mood(0.15, 0.8, 0.3, 0.6, 0.2);
  await writeEmotionsFile(join(dir, 'emotions.json'), { ...defaultState(START), emotions: saved, avatarShape: 'Square' });
  const { app } = await readyApp(t, {}, { dir });
  t.same((await app.inject('/api/avatar')).json().emotions, saved, 'the saved mood is the one served');
  const { from, changes, emotions } = (await app.inject('/api/mood/why')).json();
  t.same({ from, changes, emotions }, { from: saved, changes: [], emotions: saved }, 'from and emotions are the saved mood');
  await say(t, app, 'I am so happy today!');
  const why = (await app.inject('/api/mood/why')).json();
  t.same(why.from, saved, 'after a chat, the journal still starts from the saved mood');
  t.equal(why.changes.length, 1);
});

t.test('the visitor sees how each of its messages read: the history’s message entries carry their appraisal', async (t) => {
  const { app } = await readyApp(t);
  const chat = await app.inject({ method: 'POST', url: '/api/chat', payload: { message: 'I am terrified of spiders' } });
  t.equal(chat.statusCode, 200);
  t.same(
    Object.keys(chat.json()).sort(),
    ['avatar_shape', 'emotions', 'is_initialized', 'response'],
    'the JSON chat body keeps the seed’s fields',
  );
  const cookie = String(chat.headers['set-cookie']).split(';')[0]!;
  const { messages } = (await app.inject({ url: '/api/history', headers: { cookie } })).json();
  t.match(messages[0], { role: 'user', content: 'I am terrified of spiders', appraisal: { strongest: 'fear', reading: 'fear' } });
  t.same(messages[0].appraisal.cues, ['terrified']);
  t.same(Object.keys(messages[0].appraisal), ['emotions', 'neutral', 'strongest', 'reading', 'cues', 'source']);
  t.equal(messages[0].appraisal.neutral, Math.round(messages[0].appraisal.neutral * 100) / 100, 'rounded to 2 decimals');
  t.notOk('appraisal' in messages[1], 'a reply has none');
});
