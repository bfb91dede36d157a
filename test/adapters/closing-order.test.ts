import t from 'tap';
import { ClosingOrder } from '../../src/adapters/closing-order.js';
import { capturedLogger } from '../support/captured-logger.js';

/** A stand-in for an adapter that notes when it is closed, and fails its close when told. */
function recorded(name: string, closed: string[], fails = false) {
  return {
    close: async () => {
      closed.push(name);
      if (fails) throw new Error(`${name} would not close`);
    },
  };
}

t.test('closes what was opened in the reverse order, each close after the one before has finished', async (t) => {
  const closed: string[] = [];
  const order = new ClosingOrder(capturedLogger().logger);
  const slow = {
    // Still closing when a parallel close would have started the next one.
    close: () => new Promise<void>((resolve) => setImmediate(() => resolve(void closed.push('lease')))),
  };
  order.add('connection', recorded('connection', closed));
  order.add('ledger', recorded('ledger', closed));
  order.add('lease', slow);
  await order.close();
  t.same(closed, ['lease', 'ledger', 'connection']);
});

t.test('add returns what it records', async (t) => {
  const thing = recorded('store', []);
  t.equal(new ClosingOrder(capturedLogger().logger).add('store', thing), thing);
});

t.test('a close that fails is logged by name, and the ones opened before it still close', async (t) => {
  const closed: string[] = [];
  const log = capturedLogger();
  const order = new ClosingOrder(log.logger);
  order.add('connection', recorded('connection', closed));
  order.add('conversation store', recorded('conversation store', closed, true));
  order.add('drift lease', recorded('drift lease', closed));
  await order.close();
  t.same(closed, ['drift lease', 'conversation store', 'connection']);
  const errors = log.lines().filter((line) => line.level === 50);
  t.equal(errors.length, 1);
  t.match(errors[0], {
    adapter: 'conversation store',
    err: { message: 'conversation store would not close' },
    msg: 'the conversation store did not close cleanly; the others were still closed',
  });
});

t.test('closes once: a second close waits for the first and closes nothing again', async (t) => {
  const closed: string[] = [];
  const order = new ClosingOrder(capturedLogger().logger);
  order.add('ledger', recorded('ledger', closed));
  const first = order.close();
  const second = order.close();
  t.equal(second, first);
  await second;
  await order.close();
  t.same(closed, ['ledger']);
});
