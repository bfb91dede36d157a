import t from 'tap';
import { CALLS_PER_SIGNAL, CallSignals } from '../../src/providers/call-signals.js';

t.test('calls share a signal by batches, and a full batch is let go once its calls end', async (t) => {
  const signals = new CallSignals();
  const first = Array.from({ length: CALLS_PER_SIGNAL }, () => signals.acquire());
  t.equal(new Set(first.map((call) => call.signal)).size, 1, `${CALLS_PER_SIGNAL} calls share one signal`);
  const next = signals.acquire();
  t.not(next.signal, first[0]!.signal, 'the next call starts a new batch');
  t.equal(signals.signalsInFlight, 2);

  for (const call of first) signals.release(call);
  t.equal(signals.signalsInFlight, 1, 'the full batch is dropped when its last call ends');
  signals.release(next);
  t.equal(signals.signalsInFlight, 0);
  t.equal(signals.acquire().signal, next.signal, 'a batch that is not full yet serves the next calls');
});

t.test('abortAll aborts every call in flight, and later calls run under a fresh signal', async (t) => {
  const signals = new CallSignals();
  const calls = Array.from({ length: CALLS_PER_SIGNAL + 1 }, () => signals.acquire());
  const done = calls.pop()!;
  signals.release(done);
  signals.abortAll();
  t.ok(
    calls.every((call) => call.signal.aborted),
    'both batches aborted',
  );
  t.equal(signals.signalsInFlight, 0);
  const later = signals.acquire();
  t.notOk(later.signal.aborted, 'a call after the stop is not born aborted');
  signals.release(calls[0]!);
  t.equal(signals.signalsInFlight, 1, 'releasing an aborted call touches nothing else');
});

t.test('a batch takes one abort listener per call without a listener-leak warning', async (t) => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error): number => warnings.push(warning);
  process.on('warning', onWarning);
  t.teardown(() => void process.off('warning', onWarning));
  const signals = new CallSignals();
  let aborted = 0;
  for (let i = 0; i < CALLS_PER_SIGNAL; i += 1) {
    // What the openai client does with the signal of each call.
    signals.acquire().signal.addEventListener('abort', () => (aborted += 1), { once: true });
  }
  await new Promise((resolve) => setImmediate(resolve));
  t.same(warnings, [], 'no MaxListenersExceededWarning');
  signals.abortAll();
  t.equal(aborted, CALLS_PER_SIGNAL, 'every call heard the abort');
});

t.test('a batch takes one abort listener per attempt of each call (the client retries) without a warning', async (t) => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error): number => warnings.push(warning);
  process.on('warning', onWarning);
  t.teardown(() => void process.off('warning', onWarning));
  const attempts = 3;
  const signals = new CallSignals(attempts);
  const calls = Array.from({ length: CALLS_PER_SIGNAL }, () => signals.acquire());
  t.equal(new Set(calls.map((call) => call.signal)).size, 1, 'the batch is as large as before');
  // The openai client adds a listener per attempt: the first try and each retry.
  for (const call of calls) for (let i = 0; i < attempts; i += 1) call.signal.addEventListener('abort', () => undefined, { once: true });
  await new Promise((resolve) => setImmediate(resolve));
  t.same(warnings, [], 'no MaxListenersExceededWarning with retries');
});
