import { EventEmitter } from 'node:events';
import t from 'tap';
import { scheduleAutoStart } from '../../src/webhooks/auto-start.js';

t.test('starts once, when the event loop first runs dry', (t) => {
  const events = new EventEmitter();
  let starts = 0;
  scheduleAutoStart(() => void (starts += 1), events);
  t.equal(starts, 0, 'not while the script runs');
  events.emit('beforeExit', 0);
  events.emit('beforeExit', 0);
  t.equal(starts, 1);
  t.end();
});

t.test('cancelled: never starts', (t) => {
  const events = new EventEmitter();
  let starts = 0;
  const cancel = scheduleAutoStart(() => void (starts += 1), events);
  cancel();
  events.emit('beforeExit', 0);
  t.equal(starts, 0);
  t.equal(events.listenerCount('beforeExit'), 0);
  t.end();
});

t.test('defaults to the process', (t) => {
  const before = process.listenerCount('beforeExit');
  const cancel = scheduleAutoStart(() => {});
  t.equal(process.listenerCount('beforeExit'), before + 1);
  cancel();
  t.equal(process.listenerCount('beforeExit'), before);
  t.end();
});
