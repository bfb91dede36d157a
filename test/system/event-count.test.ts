import t from 'tap';
import { Compile } from 'typebox/compile';
import { MoodChangedSchema } from '../../src/bus/events.js';
import { eventually } from '../../testkit/eventually.js';
import { readyApp } from '../support/harness.js';

// What one chat and one drift tick cost on the bus: each change of the mood is one event
// (`mood.changed`), not a change plus the emotions plus the avatar.

t.test('one answered JSON chat crosses the bus in at most 6 events, persistence included, one of them the mood change', async (t) => {
  const { app, events, advance } = await readyApp(t, { DRIFT_INTERVAL_MS: '60000' });
  const before = events.length;
  const response = await app.inject({ method: 'POST', url: '/api/chat', payload: { message: 'I love this, wonderful' } });
  t.equal(response.statusCode, 200);
  // The emotions file's coalesced write, a window after the change.
  advance(1000);
  await eventually('the emotions file written', () => events.some((event) => event.type === 'persistence.saved') || undefined);
  const chat = events.slice(before).map((event) => event.type);
  t.ok(chat.length <= 6, `${chat.length} events: ${chat.join(', ')}`);
  // No status round trip: the system checks the phase once, when the chat arrives (the front desk);
  // no dialogue.replied: the dialogue owns the chat from acceptance to answer.
  t.same(chat, ['chat.requested', 'chat.accepted', 'sentiment.analyzed', 'mood.changed', 'chat.replied', 'persistence.saved']);
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
