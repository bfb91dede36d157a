import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { markdownTable, writeFigures, type BenchRow } from '../../bench/lib/report.js';
import { testDir } from '../support/test-dir.js';

const rows: BenchRow[] = [
  { scenario: 'GET /health vs bare GET', product: '50,000 req/s', baseline: '60,000 req/s', ratio: 5 / 6, target: '≥ 0.95', met: false },
  { scenario: 'CLI cold start', product: '250 ms', baseline: '62 ms', ratio: 4.032, target: '≤ 4', met: false },
];

t.test('the table has a row per figure, ratios to 2 decimals', (t) => {
  const lines = markdownTable(rows).split('\n');
  t.equal(lines.length, 4);
  t.equal(lines[2], '| GET /health vs bare GET | 50,000 req/s | 60,000 req/s | 0.83 | ≥ 0.95 | no |');
  t.match(lines[3], /\| 4\.03 \| ≤ 4 \| no \|$/);
  t.end();
});

t.test('the figures are replaced between the markers, and only there', (t) => {
  const file = join(testDir(t), 'performance.md');
  writeFileSync(file, '# x\n\nbefore\n<!-- bench:begin -->\nold figures\n<!-- bench:end -->\nafter\n');
  writeFigures(file, rows, new Date('2026-11-21T12:00:00Z'));
  const text = readFileSync(file, 'utf8');
  t.match(text, /^# x\n\nbefore\n<!-- bench:begin -->\nTaken 2026-11-21 on \d+ × .+, \d+ GiB, Node v\d+/);
  t.notMatch(text, 'old figures');
  t.match(text, '| CLI cold start | 250 ms |');
  t.match(text, /<!-- bench:end -->\nafter\n$/);
  t.end();
});

t.test('a document without the markers is an error that names the file', (t) => {
  const file = join(testDir(t), 'performance.md');
  writeFileSync(file, '# no markers\n');
  t.throws(() => writeFigures(file, rows, new Date()), { message: /performance\.md has no <!-- bench:begin -->/ });
  t.equal(readFileSync(file, 'utf8'), '# no markers\n', 'the file is left as it was');
  t.end();
});
