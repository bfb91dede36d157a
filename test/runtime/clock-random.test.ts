import t from 'tap';
import { epochMs, fixedClock, isoStamps, systemClock, type Clock } from '../../src/runtime/clock.js';
import { seededRandom, systemRandom } from '../../src/runtime/random.js';

t.test('fixedClock stands still until moved', (t) => {
  const clock = fixedClock('2026-11-21T00:00:00.000Z');
  t.equal(clock.now().toISOString(), '2026-11-21T00:00:00.000Z');
  clock.advance(10_000);
  t.equal(clock.now().toISOString(), '2026-11-21T00:00:10.000Z');
  clock.set('2027-01-01T00:00:00.000Z');
  t.equal(clock.now().toISOString(), '2027-01-01T00:00:00.000Z');
  t.ok(Math.abs(systemClock.now().getTime() - Date.now()) < 1000);
  t.end();
});

t.test('isoStamps follows its clock, and formats a millisecond once', (t) => {
  const clock = fixedClock('2026-11-21T00:00:00.000Z');
  let reads = 0;
  const counted: Clock = { now: () => ((reads += 1), clock.now()) };
  const stamp = isoStamps(counted);
  t.equal(stamp(), '2026-11-21T00:00:00.000Z');
  const first = stamp();
  t.equal(stamp(), first, 'the same millisecond gives the same string');
  clock.advance(1);
  t.equal(stamp(), '2026-11-21T00:00:00.001Z', 'a new millisecond, a new stamp');
  t.equal(reads, 4, 'the clock is read at every stamp: nothing is cached past its millisecond');
  t.equal(epochMs(clock), Date.parse('2026-11-21T00:00:00.001Z'));
  const system = isoStamps(systemClock)();
  t.ok(Math.abs(Date.parse(system) - Date.now()) < 1000, 'the system clock stamps the time now');
  t.ok(Math.abs(epochMs(systemClock) - Date.now()) < 1000);
  t.end();
});

t.test('seededRandom repeats its sequence for a seed and stays in [0, 1)', (t) => {
  const a = seededRandom(42);
  const b = seededRandom(42);
  const c = seededRandom(43);
  const first = Array.from({ length: 1000 }, () => a());
  t.same(
    first,
    Array.from({ length: 1000 }, () => b()),
  );
  t.not(first[0], c());
  t.ok(first.every((value) => value >= 0 && value < 1));
  const mean = first.reduce((sum, value) => sum + value, 0) / first.length;
  t.ok(mean > 0.45 && mean < 0.55, `mean ${mean} is near 0.5`);
  const r = systemRandom();
  t.ok(r >= 0 && r < 1);
  t.end();
});
