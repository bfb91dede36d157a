import { mock } from 'node:test';
import t, { type Test } from 'tap';
import { Deadlines } from '../../src/bus/deadlines.js';

/** Deadlines over a clock and timers that only move when the test says so. */
function setup(t: Test) {
  mock.timers.enable({ apis: ['setTimeout'] });
  t.teardown(() => mock.timers.reset());
  let now = 1000;
  const pending = new Set<string>();
  const expired: string[] = [];
  const deadlines = new Deadlines<string>(
    (key) => pending.has(key),
    (key) => {
      pending.delete(key);
      expired.push(key);
    },
    () => now,
  );
  const add = (key: string, timeoutMs: number) => {
    pending.add(key);
    deadlines.add(key, timeoutMs);
  };
  const advance = (ms: number) => {
    now += ms;
    mock.timers.tick(ms);
  };
  return { deadlines, pending, expired, add, advance };
}

t.test('each key expires at its own deadline, in order, and only once', (t) => {
  const { expired, add, advance } = setup(t);
  add('a', 100);
  advance(10);
  add('b', 100);
  advance(89);
  t.same(expired, [], 'nothing before the first deadline');
  advance(1);
  t.same(expired, ['a']);
  advance(9);
  t.same(expired, ['a']);
  advance(1);
  t.same(expired, ['a', 'b']);
  advance(1000);
  t.same(expired, ['a', 'b'], 'nothing twice');
  t.end();
});

t.test('a shorter timeout added later expires first', (t) => {
  const { expired, add, advance } = setup(t);
  add('chat', 1000);
  add('status', 20);
  advance(20);
  t.same(expired, ['status']);
  advance(979);
  t.same(expired, ['status']);
  advance(1);
  t.same(expired, ['status', 'chat']);
  t.end();
});

t.test('an answered key never expires, and answered keys are not kept', (t) => {
  const { deadlines, pending, expired, add, advance } = setup(t);
  add('answered', 50);
  add('waiting', 50);
  pending.delete('answered');
  advance(50);
  t.same(expired, ['waiting']);
  for (let index = 0; index < 10_000; index += 1) {
    add(`r${index}`, 2000);
    pending.delete(`r${index}`);
  }
  t.ok(deadlines.held <= 1, `answered in order, the queue stays short (${deadlines.held} held)`);
  advance(2000);
  t.same(expired, ['waiting'], 'none of them expired');
  t.equal(deadlines.held, 0);
  t.end();
});

t.test('clear() stops every deadline', (t) => {
  const { deadlines, expired, add, advance } = setup(t);
  add('a', 10);
  deadlines.clear();
  advance(100);
  t.same(expired, []);
  t.end();
});
