import { TestScheduler } from 'rxjs/testing';
import t from 'tap';
import { createActor } from 'xstate';
import { driftActor } from '../../src/actors/drift-actor.js';
import { Bus } from '../../src/bus/bus.js';
import type { EmotionDeltas } from '../../src/bus/events.js';
import { driftDeltas } from '../../src/emotions/model.js';
import { seededRandom } from '../../src/runtime/random.js';

t.test('one drift tick every 10 s of virtual time, with the deltas drawn from the random source', (t) => {
  const scheduler = new TestScheduler((actual, expected) => t.same(actual, expected));
  const bus = new Bus();
  const ticks: { frame: number; deltas: EmotionDeltas }[] = [];
  bus.on('emotions.drifted').subscribe(({ deltas }) => ticks.push({ frame: scheduler.now(), deltas }));
  const actor = createActor(driftActor, { input: { bus, intervalMs: 10_000, random: seededRandom(3), scheduler } }).start();
  scheduler.maxFrames = 35_000;
  scheduler.flush();
  actor.stop();
  const expected = seededRandom(3);
  t.same(
    ticks,
    [10_000, 20_000, 30_000].map((frame) => ({ frame, deltas: driftDeltas(expected) })),
  );
  t.end();
});
