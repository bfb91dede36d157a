import t from 'tap';
import { MemoryTurnLog } from '../../src/turns/memory-turn-log.js';
import type { TurnFrame } from '../../src/turns/turn-log.js';
import { eventually } from '../../testkit/eventually.js';
import { fixedClock } from '../../src/runtime/clock.js';

t.test('frames are numbered from 1; a follower gets those after its id, then the new ones, each once, until the end', async (t) => {
  const log = new MemoryTurnLog();
  t.teardown(() => log.close());
  const writer = log.open('turn-1', 'session-a', { message: 'hi' });
  t.same(writer.write('token', '{"text":"a"}'), { id: 1, event: 'token', data: '{"text":"a"}' });
  writer.write('token', '{"text":"b"}');
  const seen: TurnFrame[] = [];
  const follower = await log.follow('turn-1', 'session-a', 1, (frame) => seen.push(frame));
  t.ok(follower);
  t.same(
    seen.map((frame) => frame.id),
    [2],
    'only what came after the last seen',
  );
  writer.write('token', '{"text":"c"}');
  writer.write('done', '{}');
  writer.write('token', '{"text":"late"}');
  t.same(
    seen.map((frame) => [frame.id, frame.event]),
    [
      [2, 'token'],
      [3, 'token'],
      [4, 'done'],
    ],
    'live to the end, nothing after it',
  );
  t.same(await log.running('session-a'), [], 'an ended turn is no longer running');
});

t.test("another visitor's turn, or an unknown one, is not found; a closed follower hears nothing more", async (t) => {
  const log = new MemoryTurnLog();
  t.teardown(() => log.close());
  const writer = log.open('turn-1', 'session-a', { message: 'hi' });
  t.same(await log.running('session-a'), [{ id: 'turn-1', message: 'hi' }]);
  t.same(await log.running('session-b'), []);
  t.equal(await log.follow('turn-1', 'session-b', 0, () => undefined), undefined);
  t.equal(await log.follow('nope', 'session-a', 0, () => undefined), undefined);
  const seen: TurnFrame[] = [];
  const follower = await log.follow('turn-1', 'session-a', 0, (frame) => seen.push(frame));
  follower?.close();
  writer.write('token', '{}');
  t.same(seen, []);
});

t.test('an ended turn is kept keepMs, then dropped', async (t) => {
  const log = new MemoryTurnLog({ keepMs: 20 });
  t.teardown(() => log.close());
  log.open('turn-1', 'session-a', { message: 'hi' }).write('error', '{"error":"x","code":"CHAT_STOPPED"}');
  const seen: TurnFrame[] = [];
  t.ok(await log.follow('turn-1', 'session-a', 0, (frame) => seen.push(frame)), 'kept just after its end');
  t.equal(seen.length, 1);
  await eventually('the turn dropped', () => log.size === 0);
  t.equal(await log.follow('turn-1', 'session-a', 0, () => undefined), undefined);
});

t.test('with the default settings an ended turn can still be resumed 10 s later, and is gone after 60 s', async (t) => {
  const clock = fixedClock('2026-01-01T00:00:00Z');
  const log = new MemoryTurnLog({ clock });
  t.teardown(() => log.close());
  log.open('turn-1', 'session-a', { message: 'hi' }).write('done', '{}');
  clock.advance(10_000);
  const seen: TurnFrame[] = [];
  t.ok(await log.follow('turn-1', 'session-a', 0, (frame) => seen.push(frame)), 'resumed 10 s after its end');
  t.same(seen, [{ id: 1, event: 'done', data: '{}' }]);
  clock.advance(49_999);
  t.equal(log.size, 1, 'kept until 60 s after its end');
  clock.advance(1);
  t.equal(await log.follow('turn-1', 'session-a', 0, () => undefined), undefined, 'gone 60 s after');
  t.equal(log.size, 0);
});
