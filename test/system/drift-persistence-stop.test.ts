// The mood between chats: the drift in virtual time, the coalesced writes of emotions.json, the state a
// restart starts from, and the stop that ends it all.
import { readFileSync } from 'node:fs';
import { firstValueFrom, skip } from 'rxjs';
import t from 'tap';
import { START, harness } from '../support/harness.js';
import { completion } from '../../testkit/provider-wire.js';
import { ofType } from '../support/bus-events.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';
import { KEY, chat, modelsOk, ready, status } from '../support/system-steps.js';
import { testDir } from '../support/test-dir.js';

mockProviderHttp(t);

t.test('drift: every interval (virtual time) one mood.changed with its deltas changes the state', async (t) => {
  const { bus, events, advance, file } = await ready(t, { DRIFT_INTERVAL_MS: '10000' });
  advance(9_999);
  t.equal(ofType(events, 'mood.changed').length, 0);
  const thirdWrite = firstValueFrom(bus.on('persistence.saved').pipe(skip(2)));
  advance(1);
  advance(10_000);
  advance(10_000);
  advance(100);
  const drifted = ofType(events, 'mood.changed');
  t.equal(drifted.length, 3, 'three ticks in 30 s');
  t.same(
    drifted.map((e) => [e.at, e.lastUpdated]),
    ['2026-11-21T10:00:10.000Z', '2026-11-21T10:00:20.000Z', '2026-11-21T10:00:30.000Z'].map((at) => [at, at]),
  );
  t.ok(drifted.every(({ change }) => change.kind === 'drift' && Object.values(change.deltas).every((d) => Math.abs(d) <= 0.05)));
  const last = drifted.at(-1)!;
  t.match(
    await status(bus),
    { emotions: last.emotions, avatarShape: last.avatarShape, sentiment: last.sentiment, lastUpdated: last.lastUpdated },
    'the front desk reports the state the event carries',
  );
  await thirdWrite;
  t.same(JSON.parse(readFileSync(file, 'utf8')).emotions, last.emotions);
});

t.test('a burst of changes is one coalesced write', async (t) => {
  const { bus, events, advance, ledger } = await ready(t);
  for (let i = 0; i < 20; i += 1) {
    void ledger.append({ kind: 'drift', deltas: { joy: 0.01, sadness: 0, anger: 0, fear: 0, curiosity: 0 }, at: START });
  }
  advance(100);
  await firstValueFrom(bus.on('persistence.saved'));
  t.equal(ofType(events, 'persistence.saved').length, 1);
});

t.test('under sustained load the file is written at most 10 times a second', async (t) => {
  const { bus, events, advance, ledger } = await ready(t);
  for (let ms = 0; ms < 1000; ms += 10) {
    void ledger.append({ kind: 'drift', deltas: { joy: 0, sadness: 0.001, anger: 0, fear: 0, curiosity: 0 }, at: START });
    advance(10);
  }
  // A flush queues behind the coalesced writes, so its answer means they are all done.
  await bus.request({ type: 'persistence.flush.requested' }, 'persistence.saved', 2000);
  const coalesced = ofType(events, 'persistence.saved').filter((e) => e.correlationId === undefined);
  t.equal(coalesced.length, 10, '100 changes in 1 s, 10 writes');
});

t.test('persistence across restart: the next run starts from the state the last one wrote', async (t) => {
  const dir = testDir(t);
  modelsOk(2);
  mockedProvider().completions().reply(200, completion('Sorry to hear that.'));
  const first = harness(t, { system: 'real', env: KEY, dir });
  first.system.start();
  await first.system.settled();
  await chat(first.bus, 'This is terrible and sad');
  first.advance(10_000);
  const before = await status(first.bus);
  await first.system.stop();
  t.equal(first.system.stop(), first.system.stop(), 'stop is idempotent');
  const second = harness(t, { system: 'real', env: KEY, dir });
  second.system.start();
  await second.system.settled();
  const after = await status(second.bus);
  t.same(
    { emotions: after.emotions, avatarShape: after.avatarShape, sentiment: after.sentiment, lastUpdated: after.lastUpdated },
    { emotions: before.emotions, avatarShape: before.avatarShape, sentiment: before.sentiment, lastUpdated: before.lastUpdated },
  );
  t.match(ofType(second.events, 'emotions.loaded'), [{ source: 'file' }]);
});

t.test('after stop the drift is over', async (t) => {
  const { system, events, advance } = await ready(t);
  await system.stop();
  advance(60_000);
  t.equal(ofType(events, 'mood.changed').length, 0);
});
