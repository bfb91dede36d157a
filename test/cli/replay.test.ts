import { settings } from '@oclif/core';
import { runCommand } from '@oclif/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';

settings.enableAutoTranspile = false;
t.afterEach(() => {
  process.exitCode = undefined;
});

const root = join(import.meta.dirname, '..', '..');
const fixtures = join(root, 'test', 'fixtures', 'event-logs');
const loaded = JSON.stringify({
  type: 'emotions.loaded',
  at: '2026-11-21T10:00:00.000Z',
  emotions: { joy: 0.5, sadness: 0.1, anger: 0.1, fear: 0.1, curiosity: 0.5 },
  avatarShape: 'Circle',
  sentiment: { sentiment: 'neutral', positive: 0, negative: 0 },
  lastUpdated: '2026-11-21T10:00:00.000Z',
  source: 'file',
});

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

t.test('a drift line whose deltas are empty or missing is an error naming the file, line and field', async (t) => {
  const dir = t.testdir({
    'empty-deltas.jsonl': `${loaded}\n{"type":"emotions.drifted","at":"2026-11-21T10:00:01.000Z","deltas":{}}\n`,
    'no-deltas.jsonl': `${loaded}\n{"type":"emotions.drifted","at":"2026-11-21T10:00:01.000Z"}\n`,
    'string-delta.jsonl': `${loaded}\n{"type":"emotions.drifted","at":"2026-11-21T10:00:01.000Z","deltas":{"joy":"a lot","sadness":0,"anger":0,"fear":0,"curiosity":0}}\n`,
  });
  const cases: Array<[string, RegExp]> = [
    ['empty-deltas', /empty-deltas\.jsonl:2: emotions\.drifted: \/deltas\/joy: required, \/deltas\/sadness: required/],
    ['no-deltas', /no-deltas\.jsonl:2: emotions\.drifted: \/deltas: required$/],
    ['string-delta', /string-delta\.jsonl:2: emotions\.drifted: \/deltas\/joy: expected number$/],
  ];
  for (const [name, pattern] of cases) {
    const { stdout, error } = await runCommand(['replay', join(dir, `${name}.jsonl`)], { root });
    t.equal(stdout, '', `${name}: nothing printed`);
    t.match(error, { message: pattern, oclif: { exit: 1 } }, name);
  }
});

t.test('an empty log, or one with no event that sets a state, says so with a non-zero exit', async (t) => {
  const dir = t.testdir({
    'empty.jsonl': '',
    'status-only.jsonl': '{"type":"status.requested","at":"2026-11-21T10:00:00.000Z","correlationId":"a"}\n',
  });
  const empty = await runCommand(['replay', join(dir, 'empty.jsonl')], { root });
  t.equal(empty.stdout, '');
  t.match(empty.error, { message: /cannot replay .*empty\.jsonl: the log holds no events/, oclif: { exit: 1 } });
  const statusOnly = await runCommand(['replay', join(dir, 'status-only.jsonl')], { root });
  t.equal(statusOnly.stdout, '');
  t.match(statusOnly.error, { message: /status-only\.jsonl: none of its 1 events sets a state/, oclif: { exit: 1 } });
});
