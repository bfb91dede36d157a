import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import t from 'tap';
import { createActor } from 'xstate';
import { persistenceActor } from '../../src/actors/persistence-actor.js';
import { publishLate } from '../../src/bus/publish-late.js';
import { Bus } from '../../src/bus/bus.js';
import { defaultState } from '../../src/emotions/state.js';
import { createLogger } from '../../src/runtime/logger.js';
import { testDir } from '../support/test-dir.js';

t.test('a write that fails is logged and reported, and the actor keeps going', async (t) => {
  const bus = new Bus();
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ destination: { write: (line: string) => lines.push(JSON.parse(line)) } });
  const file = join(testDir(t), 'no-such-dir', 'emotions.json');
  const actor = createActor(persistenceActor, { input: { bus, file, initial: defaultState('2026-11-21T10:00:00.000Z'), logger } }).start();
  const reply = await bus.request({ type: 'persistence.flush.requested' }, ['persistence.saved', 'persistence.failed'], 1000);
  t.match(reply, { type: 'persistence.failed', file, reason: /ENOENT/ });
  t.match(lines, [{ level: 50, file, msg: /cannot write the emotions file/ }]);
  actor.stop();
});

t.test('late events after the bus closed are dropped; other errors still surface', async (t) => {
  const bus = new Bus();
  const seen = firstValueFrom(bus.all());
  publishLate(bus, { type: 'status.requested', correlationId: 'a' });
  t.match(await seen, { correlationId: 'a' });
  bus.close();
  t.doesNotThrow(() => publishLate(bus, { type: 'status.requested', correlationId: 'b' }));
  const broken = {
    publish: () => {
      throw new Error('boom');
    },
  } as unknown as Bus;
  t.throws(() => publishLate(broken, { type: 'status.requested', correlationId: 'c' }), /boom/);
});
