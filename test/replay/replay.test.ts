import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import t from 'tap';
import { replayEventLog, replayEvents } from '../../src/replay/replay.js';
import { EventLog } from '../../src/bus/event-log.js';
import { EventLogLineError, type LoggedEvent } from '../../src/bus/event-log-reader.js';
import { DEFAULT_EMOTIONS } from '../../src/emotions/model.js';
import { serializeState } from '../../src/persistence/emotions-file.js';
import { completion, modelList } from '../../testkit/provider-wire.js';
import { harness } from '../support/harness.js';
import { mockedProvider } from '../../testkit/provider-nock.js';
import { testDir } from '../support/test-dir.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'event-logs');

function lastOf<T extends LoggedEvent['type']>(file: string, type: T, lines = Infinity): Extract<LoggedEvent, { type: T }> {
  const events = readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, lines)
    .filter((line) => line.startsWith('{') && line.endsWith('}'))
    .map((line) => JSON.parse(line) as LoggedEvent);
  return events.filter((event) => event.type === type).at(-1) as Extract<LoggedEvent, { type: T }>;
}

t.test('a recorded session replays to exactly the state that run persisted', async (t) => {
  const state = await replayEventLog(join(fixtures, 'session.jsonl'));
  t.equal(serializeState(state), readFileSync(join(fixtures, 'session.emotions.json'), 'utf8'));
});

t.test('a log recorded before mood.changed (chats, drift ticks, a shutdown) replays to the state that run wrote', async (t) => {
  // Recorded from the service as it was (EVENT_LOG set, 4 chats answered and one refused while initializing, drift every 400 ms, SIGTERM): its
  // changes are chat.committed and emotions.drifted, with emotions.changed and avatar.changed.
  const file = join(fixtures, 'recorded-before-mood-changed.jsonl');
  const state = await replayEventLog(file);
  t.equal(serializeState(state), readFileSync(join(fixtures, 'recorded-before-mood-changed.emotions.json'), 'utf8'));
  t.same(state.emotions, lastOf(file, 'emotions.changed').emotions, 'the emotions the live actors had');
  t.match(lastOf(file, 'avatar.changed'), { avatarShape: state.avatarShape, lastUpdated: state.lastUpdated });
});

t.test('a crash-truncated tail is skipped with a warning; the rest replays', async (t) => {
  const file = join(fixtures, 'truncated.jsonl');
  const warnings: string[] = [];
  const state = await replayEventLog(file, { onWarning: (w) => warnings.push(w) });
  t.match(warnings, [/truncated\.jsonl:47: skipped a truncated last line/]);
  t.same(state.emotions, lastOf(file, 'emotions.changed', 46).emotions, 'the emotions the live actors had');
  t.equal(state.lastUpdated, lastOf(file, 'emotions.changed', 46).at, 'stamped like the change it folded last');
  await replayEventLog(file);
  t.pass('no warning callback is fine');
});

t.test('a malformed line in the middle is an error naming the line', async (t) => {
  const error = await replayEventLog(join(fixtures, 'malformed.jsonl')).catch((e: unknown) => e);
  t.type(error, EventLogLineError);
  t.match(error, { line: 13, message: /malformed\.jsonl:13: malformed JSON/ });
});

t.test('a log without emotions.loaded starts from the defaults', async (t) => {
  const at = '2026-11-21T10:00:00.000Z';
  const deltas = { joy: 0, sadness: 0, anger: 0, fear: 0, curiosity: 0 };
  const state = await replayEvents([{ type: 'emotions.drifted', at, deltas }]);
  t.same(state.emotions, DEFAULT_EMOTIONS);
  t.equal(state.avatarShape, 'Circle');
  t.equal(state.lastUpdated, at, 'dated by the event, not the epoch');
});

t.test('a log with no event that sets a state is an error, not the defaults dated 1970', async (t) => {
  await t.rejects(replayEvents([]), { name: 'NothingToReplayError', message: 'the log holds no events' });
  await t.rejects(replayEvents([{ type: 'status.requested', at: '2026-11-21T10:00:00.000Z', correlationId: 'x' }]), {
    name: 'NothingToReplayError',
    message: /none of its 1 events sets a state/,
  });
});

t.test('a run with an event log (chat, drift, restart-free) replays to its emotions file, exactly', async (t) => {
  nock.disableNetConnect();
  t.teardown(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });
  mockedProvider().models().reply(200, modelList());
  mockedProvider().completions().times(3).reply(200, completion('Noted.'));
  const dir = testDir(t);
  const { system, bus, advance, file } = harness(t, { system: 'real', env: { LLM_API_KEY: 'sk-test', DRIFT_INTERVAL_MS: '1000' }, dir });
  const logFile = join(dir, 'events.jsonl');
  const log = new EventLog(bus, logFile);
  await log.opened();
  system.start();
  await system.settled();
  for (const message of ['I am thrilled, this is great', 'ugh, terrible and scary', 'what is the weather?']) {
    await bus.request({ type: 'chat.requested', session: 'visitor-a', message }, ['chat.replied', 'chat.rejected'], 2000);
    advance(2_500);
  }
  await system.stop();
  await log.close();
  const replayed = await replayEventLog(logFile);
  t.equal(serializeState(replayed), readFileSync(file, 'utf8'));
  t.not(replayed.emotions, DEFAULT_EMOTIONS);
});
