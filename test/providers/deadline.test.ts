import OpenAI from 'openai';
import t from 'tap';
import { isRetryable, retryDelayMs, withinDeadline } from '../../src/providers/deadline.js';

const status = (code: number, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(code, { error: { message: `HTTP ${code}` } }, undefined, new Headers(headers));
const timeout = () => new OpenAI.APIConnectionTimeoutError();

/** A virtual monotonic clock: tries take `tookMs` each, sleeps move it; what each try was given is recorded. */
function virtual(outcomes: Array<(timeoutMs: number) => unknown>, tookMs = 10) {
  let now = 0;
  const given: number[] = [];
  const slept: number[] = [];
  const attempt = async (timeoutMs: number) => {
    given.push(timeoutMs);
    const outcome = outcomes[given.length - 1]!;
    now += Math.min(tookMs, timeoutMs);
    return outcome(timeoutMs);
  };
  const options = {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
    random: () => 0,
  };
  return { attempt, options, given, slept, elapsed: () => now };
}

const fail = (error: Error) => () => {
  throw error;
};

t.test('LLM_TIMEOUT_MS bounds the whole chat: each retry gets only the time left', async (t) => {
  const run = virtual([fail(status(503)), fail(status(503)), () => 'reply']);
  t.equal(await withinDeadline(run.attempt, { timeoutMs: 5000, maxRetries: 2, ...run.options }), 'reply');
  t.same(run.slept, [500, 1000], 'the back-off: 0.5 s, then 1 s');
  t.same(run.given, [5000, 4490, 3480], 'each try is given what is left of the one deadline');
});

t.test('a retry is made only while time is left after its wait', async (t) => {
  const run = virtual([fail(status(503)), fail(status(502)), () => 'never asked']);
  t.match(await withinDeadline(run.attempt, { timeoutMs: 1200, maxRetries: 2, ...run.options }).catch((e: unknown) => e), { status: 502 });
  t.same(run.given, [1200, 690], 'a second try at 0.51 s; the next wait (1 s) would pass the deadline');
  t.ok(run.elapsed() < 1200, `over within the deadline (${run.elapsed()} ms)`);
});

t.test('a try that ran out of the time is a timeout, never retried', async (t) => {
  const run = virtual([fail(timeout()), () => 'never asked'], 1000);
  const error = await withinDeadline(run.attempt, { timeoutMs: 1000, maxRetries: 2, ...run.options }).catch((e: unknown) => e);
  t.type(error, OpenAI.APIConnectionTimeoutError);
  t.same(run.given, [1000]);
});

t.test('what is retried: connection failures, 408, 409, 429, 5xx, or what the provider advises', (t) => {
  for (const code of [408, 409, 429, 500, 503]) t.ok(isRetryable(status(code)), `HTTP ${code}`);
  for (const code of [400, 401, 403, 404, 422]) t.notOk(isRetryable(status(code)), `not HTTP ${code}`);
  t.ok(isRetryable(new OpenAI.APIConnectionError({ message: 'connect ECONNREFUSED' })));
  t.notOk(isRetryable(timeout()), 'not a timeout');
  t.notOk(isRetryable(new Error('a bug')), 'not another error');
  t.ok(isRetryable(status(400, { 'x-should-retry': 'true' })));
  t.notOk(isRetryable(status(503, { 'x-should-retry': 'false' })));
  t.end();
});

t.test("the wait: the provider's Retry-After, else 0.5 s doubling to 8 s less up to a quarter", (t) => {
  t.equal(
    retryDelayMs(status(429, { 'retry-after-ms': '250' }), 0, () => 0),
    250,
  );
  t.equal(
    retryDelayMs(status(429, { 'retry-after': '2' }), 0, () => 0),
    2000,
  );
  t.same(
    [0, 1, 2, 3, 4, 5].map((retry) => retryDelayMs(status(503), retry, () => 0)),
    [500, 1000, 2000, 4000, 8000, 8000],
  );
  t.equal(
    retryDelayMs(status(503), 0, () => 0.999999),
    500 * (1 - 0.999999 * 0.25),
  );
  t.end();
});

t.test('a non-retryable failure is thrown at once', async (t) => {
  const run = virtual([fail(status(401)), () => 'never asked']);
  t.match(await withinDeadline(run.attempt, { timeoutMs: 5000, maxRetries: 2, ...run.options }).catch((e: unknown) => e), { status: 401 });
  t.same(run.given, [5000]);
});
