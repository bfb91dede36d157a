import t from 'tap';
import { Compile } from 'typebox/compile';
import { MoodChangedSchema } from '../../src/bus/events.js';
import { readyApp } from '../support/chat-system-harness.js';

// What one chat and one drift tick cost on the bus: each change of the mood is one event
// (`mood.changed`), not a change plus the emotions plus the avatar.

t.test('one answered JSON chat crosses the bus in at most 8 events, one of them the mood change', async (t) => {
  const { app, events } = await readyApp(t, { DRIFT_INTERVAL_MS: '60000' });
  const before = events.length;
  const response = await app.inject({ method: 'POST', url: '/api/chat', payload: { message: 'I love this, wonderful' } });
  t.equal(response.statusCode, 200);
  const chat = events.slice(before).map((event) => event.type);
  t.ok(chat.length <= 8, `${chat.length} events: ${chat.join(', ')}`);
  t.same(chat, [
    'status.requested',
    'status.reported',
    'chat.requested',
    'chat.accepted',
    'sentiment.analyzed',
    'dialogue.replied',
    'mood.changed',
    'chat.replied',
  ]);
  const mood = events.find((event) => event.type === 'mood.changed');
  t.ok(Compile(MoodChangedSchema).Check(mood), 'the event matches its schema in the catalogue');
  t.match(mood, { change: { kind: 'chat', sentiment: { sentiment: 'positive' } }, avatarShape: response.json().avatar_shape });
});

t.test('one drift tick crosses the bus in 1 event carrying its deltas and the whole state after it', async (t) => {
  const { events, advance } = await readyApp(t, { DRIFT_INTERVAL_MS: '10000' });
  const before = events.length;
  advance(10_000);
  const tick = events.slice(before);
  t.match(
    tick.map((event) => event.type),
    ['mood.changed'],
  );
  t.ok(Compile(MoodChangedSchema).Check(tick[0]));
  t.match(tick[0], {
    change: { kind: 'drift', deltas: { joy: Number } },
    emotions: { joy: Number },
    avatarShape: String,
    lastUpdated: tick[0]?.at,
  });
});
