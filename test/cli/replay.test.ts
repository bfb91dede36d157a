import { settings } from '@oclif/core';
import { runCommand } from '@oclif/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from '../support/built-cli.js';

settings.enableAutoTranspile = false;
t.afterEach(() => {
  process.exitCode = undefined;
});

const root = ROOT;
const fixtures = join(root, 'test', 'fixtures', 'event-logs');

t.test('hub replay FILE prints the final state in the emotions.json layout', async (t) => {
  const { stdout, error } = await runCommand(['replay', join(fixtures, 'session.jsonl')], { root });
  t.equal(error, undefined);
  t.equal(stdout, readFileSync(join(fixtures, 'session.emotions.json'), 'utf8'));
});

t.test('a truncated tail gives a warning on stderr and still the state', async (t) => {
  const { stdout, stderr, error } = await runCommand(['replay', join(fixtures, 'truncated.jsonl')], { root });
  t.equal(error, undefined);
  t.match(stderr, /^warning: .*truncated\.jsonl:47: skipped a truncated last line/);
  t.match(JSON.parse(stdout), { version: 1, emotions: { joy: Number } });
});

t.test('a malformed log is a clear error naming the line, with a non-zero exit', async (t) => {
  const { stdout, error } = await runCommand(['replay', join(fixtures, 'malformed.jsonl')], { root });
  t.equal(stdout, '');
  t.match(error, { message: /cannot replay .*malformed\.jsonl:13: malformed JSON/, oclif: { exit: 1 } });
});

t.test('a missing file is a clear error', async (t) => {
  const { error } = await runCommand(['replay', join(fixtures, 'absent.jsonl')], { root });
  t.match(error, { message: /cannot replay .*absent\.jsonl: ENOENT/, oclif: { exit: 1 } });
});
