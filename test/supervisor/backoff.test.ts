import t from 'tap';
import { DEFAULT_BACKOFF, nextStart, restartDelayMs } from '../../src/supervisor/backoff.js';

t.test('no wait after a service that was ready; then a doubling wait per failed start in a row, capped', async (t) => {
  const backoff = { initialMs: 500, maxMs: 30_000 };
  t.same(
    [0, 1, 2, 3, 4, 6, 7, 20].map((failures) => restartDelayMs(failures, backoff)),
    [0, 500, 1000, 2000, 4000, 16_000, 30_000, 30_000],
  );
});

t.test('a service ready for steadyMs resets the count; one that ends sooner is a failure in a row, the first of them free', async (t) => {
  const backoff = { initialMs: 500, maxMs: 30_000, steadyMs: 10_000 };
  t.same(nextStart(5, 10_000, backoff), { failuresInARow: 0, delayMs: 0 }, 'steady: back at once, count reset');
  t.same(nextStart(0, 9_999, backoff), { failuresInARow: 1, delayMs: 0 }, 'the first quick failure after a steady run: at once');
  t.same(nextStart(1, 2_000, backoff), { failuresInARow: 2, delayMs: 1000 }, 'the second: a wait');
  t.same(nextStart(2, 2_000, backoff), { failuresInARow: 3, delayMs: 2000 }, 'growing');
  t.same(nextStart(0, undefined, backoff), { failuresInARow: 1, delayMs: 500 }, 'never ready: a wait from the first');
  t.same(nextStart(12, 0, backoff), { failuresInARow: 13, delayMs: 30_000 }, 'capped');
});

t.test('the default: 0.5 s doubling to 30 s, and a minute healthy resets the count', async (t) => {
  t.same(DEFAULT_BACKOFF, { initialMs: 500, maxMs: 30_000, steadyMs: 60_000 });
  t.same(nextStart(3, 59_999), { failuresInARow: 4, delayMs: 4000 });
  t.same(nextStart(3, 60_000), { failuresInARow: 0, delayMs: 0 });
});
