import t from 'tap';
import { restartDelayMs } from '../../src/supervisor/backoff.js';

t.test('no wait after a service that was ready; then a doubling wait per failed start in a row, capped', async (t) => {
  const backoff = { initialMs: 500, maxMs: 30_000 };
  t.same(
    [0, 1, 2, 3, 4, 6, 7, 20].map((failures) => restartDelayMs(failures, backoff)),
    [0, 500, 1000, 2000, 4000, 16_000, 30_000, 30_000],
  );
});
