import t from 'tap';
import { pacedWrites, TURN_WRITE_WINDOW_MS, type PaceTimers } from '../../src/http/paced-writes.js';

/** Timers a test moves by hand: `endTick()` runs what waits for the end of the tick, `advance(ms)` what falls due. */
function handTimers() {
  let now = 1000;
  let ticks: Array<() => void> = [];
  let due: Array<{ at: number; run: () => void; live: boolean }> = [];
  const timers: PaceTimers = {
    now: () => now,
    later(run, ms) {
      const entry = { at: now + ms, run, live: true };
      due.push(entry);
      return () => (entry.live = false);
    },
    soon: (run) => void ticks.push(run),
  };
  return {
    timers,
    endTick() {
      const runs = ticks;
      ticks = [];
      for (const run of runs) run();
    },
    advance(ms: number) {
      now += ms;
      const ready = due.filter((entry) => entry.at <= now);
      due = due.filter((entry) => entry.at > now);
      for (const entry of ready) if (entry.live) entry.run();
    },
    pendingTimers: () => due.filter((entry) => entry.live).length,
  };
}

function writer() {
  const clock = handTimers();
  const written: string[] = [];
  const writes = pacedWrites((text) => written.push(text), TURN_WRITE_WINDOW_MS, clock.timers);
  return { ...clock, written, writes };
}

t.test('the first frame goes out at the end of its tick, with the others of that tick, in one write', (t) => {
  const { writes, written, endTick } = writer();
  writes.add('a');
  writes.add('b');
  t.same(written, [], 'nothing is written before the tick ends');
  endTick();
  t.same(written, ['ab']);
  t.end();
});

t.test('frames within the window after a write wait for its end and go out together, in order', (t) => {
  const { writes, written, endTick, advance } = writer();
  writes.add('1');
  endTick();
  advance(20);
  writes.add('2');
  endTick();
  advance(10);
  writes.add('3');
  endTick();
  t.same(written, ['1'], 'held while the window lasts');
  advance(TURN_WRITE_WINDOW_MS - 30 - 1);
  t.same(written, ['1']);
  advance(1);
  t.same(written, ['1', '23'], 'one write when the window ends, a window after the first');
  t.end();
});

t.test('a frame after a quiet window is not held', (t) => {
  const { writes, written, endTick, advance } = writer();
  writes.add('1');
  endTick();
  advance(TURN_WRITE_WINDOW_MS);
  writes.add('2');
  endTick();
  t.same(written, ['1', '2']);
  t.end();
});

t.test('a flush writes what waits at once, and nothing is written twice or later', (t) => {
  const { writes, written, endTick, advance, pendingTimers } = writer();
  writes.add('1');
  endTick();
  advance(5);
  writes.add('2');
  writes.add('done');
  writes.flush();
  t.same(written, ['1', '2done'], 'the last frame and what waited before it, in order');
  t.equal(pendingTimers(), 0, 'the window no longer waits');
  advance(TURN_WRITE_WINDOW_MS);
  endTick();
  t.same(written, ['1', '2done']);
  writes.flush();
  t.same(written, ['1', '2done'], 'an empty flush writes nothing');
  t.end();
});

t.test('a flush within the first tick takes its place: a frame queued after it keeps its own window', (t) => {
  const { writes, written, endTick, advance } = writer();
  writes.add('1');
  writes.flush();
  writes.add('2');
  endTick();
  t.same(written, ['1'], 'the tick that was to write 1 does not write 2 early');
  advance(TURN_WRITE_WINDOW_MS);
  t.same(written, ['1', '2']);
  t.end();
});
