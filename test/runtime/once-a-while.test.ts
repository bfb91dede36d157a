import t from 'tap';
import { fixedClock } from '../../src/runtime/clock.js';
import { onceAWhile } from '../../src/runtime/once-a-while.js';

t.test('a repeated line is written once a period, the next one counting those left out', (t) => {
  const clock = fixedClock('2026-11-28T00:00:00Z');
  const written: string[] = [];
  const warn = onceAWhile(clock, 60_000, (line) => written.push(line));
  warn('failed');
  warn('failed');
  clock.advance(59_999);
  warn('failed');
  t.same(written, ['failed']);
  clock.advance(1);
  warn('failed again');
  t.same(written, ['failed', 'failed again (and 2 more like it since the last line)']);
  clock.advance(60_000);
  warn('once more');
  t.same(written.at(-1), 'once more');
  t.end();
});
