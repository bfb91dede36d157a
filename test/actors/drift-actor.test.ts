import { TestScheduler } from 'rxjs/testing';
import t from 'tap';
import { createActor } from 'xstate';
import { driftActor } from '../../src/actors/drift-actor.js';
import type { EmotionDeltas } from '../../src/bus/events.js';
import { driftDeltas } from '../../src/emotions/model.js';
import { ALWAYS_HELD, type DriftLease } from '../../src/mood-ledger/drift-lease.js';
import { LocalMoodLedger } from '../../src/mood-ledger/local-mood-ledger.js';
import { defaultState } from '../../src/emotions/state.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { seededRandom } from '../../src/runtime/random.js';

t.test('one drift change appended to the ledger every 10 s of virtual time, with the deltas drawn from the random source', (t) => {
  const scheduler = new TestScheduler((actual, expected) => t.same(actual, expected));
  const ledger = new LocalMoodLedger(defaultState('2026-11-21T10:00:00.000Z'));
  const clock = fixedClock('2026-11-21T10:00:00.000Z');
  const ticks: { frame: number; deltas: EmotionDeltas; at: string }[] = [];
  ledger.subscribe((change) => {
    if (change.kind === 'drift') ticks.push({ frame: scheduler.now(), deltas: change.deltas, at: change.at });
    clock.advance(10_000);
  });
  const actor = createActor(driftActor, {
    input: { ledger, lease: ALWAYS_HELD, clock, intervalMs: 10_000, random: seededRandom(3), scheduler },
  }).start();
  scheduler.maxFrames = 35_000;
  scheduler.flush();
  actor.stop();
  const expected = seededRandom(3);
  t.same(
    ticks,
    [10_000, 20_000, 30_000].map((frame, i) => ({
      frame,
      deltas: driftDeltas(expected),
      at: new Date(Date.parse('2026-11-21T10:00:00.000Z') + i * 10_000).toISOString(),
    })),
  );
  t.end();
});

t.test('a drift change the ledger refuses is skipped, and the next tick draws again', async (t) => {
  const scheduler = new TestScheduler(() => undefined);
  const ledger = new LocalMoodLedger(defaultState('2026-11-21T10:00:00.000Z'));
  await ledger.close();
  const input = {
    ledger,
    lease: ALWAYS_HELD,
    clock: fixedClock('2026-11-21T10:00:00.000Z'),
    intervalMs: 10,
    random: seededRandom(3),
    scheduler,
  };
  const actor = createActor(driftActor, { input }).start();
  scheduler.maxFrames = 25;
  t.doesNotThrow(() => scheduler.flush());
  await new Promise((resolve) => setImmediate(resolve));
  actor.stop();
});

t.test('a replica that does not hold the drift lease skips its ticks; it drifts from the tick after it gains it', (t) => {
  const scheduler = new TestScheduler(() => undefined);
  const ledger = new LocalMoodLedger(defaultState('2026-11-21T10:00:00.000Z'));
  const frames: number[] = [];
  ledger.subscribe(() => frames.push(scheduler.now()));
  let holding = false;
  const lease: DriftLease = { held: () => holding, close: async () => undefined };
  const input = { ledger, lease, clock: fixedClock('2026-11-21T10:00:00.000Z'), intervalMs: 10_000, random: seededRandom(3), scheduler };
  const actor = createActor(driftActor, { input }).start();
  scheduler.schedule(() => (holding = true), 25_000);
  scheduler.schedule(() => (holding = false), 45_000);
  scheduler.maxFrames = 65_000;
  scheduler.flush();
  actor.stop();
  t.same(frames, [30_000, 40_000], 'only the ticks while it held the lease');
  t.end();
});
