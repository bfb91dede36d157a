import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mock } from 'node:test';
import t from 'tap';
import { Bus } from '../../src/bus/bus.js';
import { EventLog } from '../../src/bus/event-log.js';
import { EventLogLineError, readEventLog, type LoggedEvent } from '../../src/bus/event-log-reader.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { DEFAULT_EMOTIONS } from '../../src/emotions/model.js';
import { testDir } from '../support/test-dir.js';

const emotions = { joy: 0.5, sadness: 0.1, anger: 0.1, fear: 0.1, curiosity: 0.5 };
const loadedAvatar = {
  avatarShape: 'Circle',
  sentiment: { sentiment: 'neutral', positive: 0, negative: 0 },
  lastUpdated: '2026-11-21T09:00:00.000Z',
} as const;

async function collect(file: string, options = {}): Promise<LoggedEvent[]> {
  const events: LoggedEvent[] = [];
  for await (const event of readEventLog(file, options)) events.push(event);
  return events;
}

t.test('every published event round-trips through the log, in order', async (t) => {
  const dir = testDir(t);
  const file = join(dir, 'logs', 'events.jsonl');
  const bus = new Bus({ clock: fixedClock('2026-11-21T12:00:00.000Z') });
  const log = new EventLog(bus, file);
  await log.opened();
  const published = [
    bus.publish({ type: 'emotions.loaded', emotions, ...loadedAvatar, source: 'defaults' }),
    bus.publish({ type: 'chat.requested', correlationId: 'a', session: 'visitor-a', message: 'I love this "quoted" line\nand a newline' }),
    bus.publish({ type: 'persistence.saved', file: 'emotions.json' }),
  ];
  await log.close();
  await log.close();
  bus.publish({ type: 'persistence.saved', file: 'emotions.json' });
  t.same(await collect(file), published, 'events after close are not written');
  t.equal(readFileSync(file, 'utf8').split('\n').length, 4, 'one line per event plus the final newline');
});

t.test('the log appends to an existing file and flushSync writes the buffer at once', async (t) => {
  const file = join(testDir(t, { 'events.jsonl': '' }), 'events.jsonl');
  const bus = new Bus();
  const first = new EventLog(bus, file, { bufferBytes: 1 << 20, flushIntervalMs: 60_000 });
  await first.opened();
  bus.publish({ type: 'status.requested', correlationId: 'x' });
  t.equal(readFileSync(file, 'utf8'), '', 'still buffered');
  first.flushSync();
  t.equal(readFileSync(file, 'utf8').split('\n').filter(Boolean).length, 1);
  await first.close();
  const second = new EventLog(bus, file);
  bus.publish({ type: 'status.requested', correlationId: 'y' });
  await second.close();
  t.same(
    (await collect(file)).map((event) => (event as { correlationId: string }).correlationId),
    ['x', 'y'],
  );
});

t.test('a log file that cannot be opened is reported, not thrown later', async (t) => {
  const dir = testDir(t, { 'a-file': 'x' });
  const bus = new Bus();
  const log = new EventLog(bus, join(dir, 'a-file', 'events.jsonl'));
  await t.rejects(log.opened());
  log.flushSync();
  await log.close();
});

t.test('a log file that cannot be opened leaves no flush behind: nothing writes to it after the close', async (t) => {
  // Node's mock timers: the periodic flush fires when told, not after a real second.
  mock.timers.enable({ apis: ['setInterval'] });
  t.teardown(() => mock.timers.reset());
  const dir = testDir(t, { 'a-file': 'x' });
  const bus = new Bus();
  const log = new EventLog(bus, join(dir, 'a-file', 'events.jsonl'), { flushIntervalMs: 1000 });
  await t.rejects(log.opened());
  bus.publish({ type: 'status.requested', correlationId: 'a' });
  mock.timers.tick(1000);
  await log.close();
  t.doesNotThrow(() => mock.timers.tick(5000), 'no flush to a file that never opened (fd -1)');
});

t.test('the reader names the malformed line by its number', async (t) => {
  const dir = testDir(t);
  const cases: Array<[string, string, RegExp]> = [
    ['bad-json', '{"type":"status.requested","correlationId":"a","at":"2026-11-21T00:00:00.000Z"}\n{nope\n', /:2: malformed JSON/],
    ['unknown', '\n{"type":"system.exploded","at":"2026-11-21T00:00:00.000Z"}\n', /:2: unknown event type "system.exploded"/],
    ['no-at', '{"type":"status.requested","correlationId":"a"}\n', /:1: status.requested: \/at: required$/],
    [
      'bad-at',
      '{"type":"status.requested","correlationId":"a","at":"yesterday"}\n',
      /:1: status.requested: \/at: must match format "date-time"$/,
    ],
    [
      'no-deltas',
      '{"type":"emotions.drifted","at":"2026-11-21T00:00:00.000Z"}\n',
      /^.*no-deltas\.jsonl:1: emotions\.drifted: \/deltas: required$/,
    ],
    [
      'empty-deltas',
      '{"type":"emotions.drifted","at":"2026-11-21T00:00:00.000Z","deltas":{}}\n',
      /:1: emotions\.drifted: \/deltas\/joy: required/,
    ],
    [
      'string-delta',
      '{"type":"emotions.drifted","at":"2026-11-21T00:00:00.000Z","deltas":{"joy":"0.1","sadness":0,"anger":0,"fear":0,"curiosity":0}}\n',
      /:1: emotions\.drifted: \/deltas\/joy: expected number$/,
    ],
    [
      'emotion-out-of-range',
      '{"type":"emotions.loaded","at":"2026-11-21T00:00:00.000Z","emotions":{"joy":1.5,"sadness":0,"anger":0,"fear":0,"curiosity":0},"avatarShape":"Circle","sentiment":{"sentiment":"neutral","positive":0,"negative":0},"lastUpdated":"2026-11-21T00:00:00.000Z","source":"file"}\n',
      /:1: emotions\.loaded: \/emotions\/joy: must be <= 1$/,
    ],
    ['array', '[1,2]\n', /:1: not a JSON object/],
  ];
  for (const [name, text, pattern] of cases) {
    const file = join(dir, `${name}.jsonl`);
    writeFileSync(file, text);
    const error = await collect(file).catch((e: unknown) => e);
    t.type(error, EventLogLineError, name);
    t.match((error as Error).message, pattern, name);
  }
});

t.test('a crash-truncated last line is an error unless the caller allows it', async (t) => {
  const file = join(testDir(t), 'crashed.jsonl');
  const whole = '{"type":"status.requested","correlationId":"a","at":"2026-11-21T00:00:00.000Z"}\n';
  writeFileSync(file, whole);
  appendFileSync(file, '{"type":"status.requested","corr');
  const error = await collect(file).catch((e: unknown) => e);
  t.match(error, { line: 2 });
  const skipped: number[] = [];
  const events = await collect(file, { allowTruncatedTail: true, onTruncatedTail: (line: number) => skipped.push(line) });
  t.equal(events.length, 1);
  t.same(skipped, [2]);
  writeFileSync(file, whole.trimEnd());
  t.equal((await collect(file)).length, 1, 'a complete last line without newline is fine');
});

t.test('a streamed reply is written once, whole: its pieces are not logged', async (t) => {
  const file = join(testDir(t), 'events.jsonl');
  const bus = new Bus({ clock: fixedClock('2026-11-21T12:00:00.000Z') });
  const log = new EventLog(bus, file);
  await log.opened();
  bus.publish({ type: 'chat.requested', correlationId: 'a', session: 'visitor-a', message: 'hello', stream: true });
  for (const text of ['Glad ', 'to ', 'hear ', 'it!']) bus.publish({ type: 'chat.token', correlationId: 'a', text });
  const replied = bus.publish({
    type: 'chat.replied',
    correlationId: 'a',
    response: 'Glad to hear it!',
    emotions: DEFAULT_EMOTIONS,
    avatarShape: 'Circle',
  });
  await log.close();
  const types = (await collect(file)).map((event) => event.type);
  t.same(types, ['chat.requested', 'chat.replied'], 'one line for the request, one for the whole reply');
  t.match((await collect(file)).at(-1), replied);
});
