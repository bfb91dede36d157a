// The launched WebhooksServer over real HTTP (keep-alive fetch): generated requests, and what a
// refusal leaves in the log.
import fc from 'fast-check';
import t, { type Test } from 'tap';
import { WebhooksServer } from '../../src/webhooks/server.js';
import { capturedLogger } from './helpers.js';
import { countingHandlers, deliverAndCheck, headersOf, requestArb, SECRET, sendsBody, validDelivery, type Answer, type GeneratedRequest } from './robustness-cases.js';

const BODY_LIMIT = 1024 * 1024; // the server's default, which it is left at
const RUNS = 300;
const CANARY_RUNS = 150;

async function launch(t: Test) {
  const log = capturedLogger();
  const server = new WebhooksServer({ webhookSecret: SECRET, port: 0, logger: log.logger, env: { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' }, print: () => {} });
  const calls = countingHandlers((name, handler) => (name === undefined ? server.addWebhook(handler) : server.addWebhook(name, handler)));
  const { localUrl, close } = await server.launch();
  t.teardown(close);
  const post = async (path: string, headers: Record<string, string>, body: string | Uint8Array | undefined, method = 'POST'): Promise<Answer> => {
    // A Uint8Array body, so that fetch adds no content type of its own.
    const res = await fetch(localUrl + path, { method, headers, ...(body !== undefined && { body: Buffer.from(body) }) });
    return { status: res.status, contentType: res.headers.get('content-type') ?? undefined, text: await res.text() };
  };
  const send = (request: GeneratedRequest): Promise<Answer> =>
    post(request.path.value, headersOf(request), sendsBody(request) ? request.body.value : undefined, request.method);
  return { log, calls, post, send };
}

t.test(`${RUNS} generated requests over HTTP: documented statuses, JSON errors, handlers reached exactly by valid deliveries`, async (t) => {
  const { log, calls, post, send } = await launch(t);
  const statuses = new Set<number>();
  await fc.assert(
    fc.asyncProperty(requestArb({ http: true }, BODY_LIMIT), async (request) => {
      statuses.add((await deliverAndCheck(request, calls, send)).status);
    }),
    { numRuns: RUNS },
  );
  t.comment(`statuses seen: ${[...statuses].sort().join(' ')}`);
  t.ok([200, 401, 403, 404, 415, 422].every((status) => statuses.has(status)), 'the main outcomes all occurred');
  const { path, headers, body } = validDelivery();
  t.equal((await post(path, headers, body)).status, 200, 'a valid delivery is still served afterwards');
  t.notOk(log.text().includes(SECRET), 'the secret never reaches the log');
});

/** Refused deliveries, each carrying a unique canary where a careless log would copy it from. */
const refusals = {
  'wrong secret': (canary: string) => ({ secret: canary, body: JSON.stringify({ note: canary }), status: 403 }),
  'missing secret': (canary: string) => ({ secret: undefined, body: JSON.stringify({ note: canary }), status: 401 }),
  'malformed JSON': (canary: string) => ({ secret: SECRET, body: `{"note":"${canary}"`, status: 400 }),
  'not a payload': (canary: string) => ({ secret: SECRET, body: JSON.stringify({ note: canary }), status: 422 }),
  'secret in the query': (canary: string) => ({ secret: SECRET, query: `?secret=${canary}`, body: '{}', status: 422 }),
  'not JSON': (canary: string) => ({ secret: SECRET, type: 'text/plain', body: canary, status: 415 }),
  'no content type': (canary: string) => ({ secret: SECRET, type: null, body: canary, status: 415 }),
  'too large': (canary: string) => ({ secret: SECRET, body: JSON.stringify({ note: canary.repeat(Math.ceil(BODY_LIMIT / canary.length)) }), status: 413 }),
} satisfies Record<string, (canary: string) => { secret: string | undefined; body: string; status: number; query?: string; type?: string | null }>;

t.test(`${CANARY_RUNS} refusals: one log line each, with the route and status, never the secret, body or query`, async (t) => {
  const { log, post } = await launch(t);
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...(Object.keys(refusals) as (keyof typeof refusals)[])), fc.stringMatching(/^[A-Za-z0-9]{16}$/), async (kind, random) => {
      const canary = `canary${random}`;
      const refusal: { secret: string | undefined; body: string; status: number; query?: string; type?: string | null } = refusals[kind](canary);
      const type = refusal.type === undefined ? 'application/json' : refusal.type;
      const headers = { ...(type !== null && { 'content-type': type }), ...(refusal.secret !== undefined && { 'x-webhook-secret': refusal.secret }) };
      const before = log.lines().length;
      const answer = await post(`/webhooks/on_commit${refusal.query ?? ''}`, headers, refusal.body);
      if (answer.status !== refusal.status) throw new Error(`${kind}: status ${answer.status}, expected ${refusal.status}`);
      const written = log.lines().slice(before);
      const text = JSON.stringify(written);
      if (text.includes(canary) || text.includes(SECRET)) throw new Error(`${kind}: the log holds what the request carried: ${text.slice(0, 500)}`);
      const refused = written.filter((line) => line.msg === 'webhook request refused');
      if (refused.length !== 1 || refused[0]!.statusCode !== refusal.status || refused[0]!.route !== '/webhooks/on_commit') {
        throw new Error(`${kind}: expected one refusal line with route and status, got ${text.slice(0, 500)}`);
      }
    }),
    { numRuns: CANARY_RUNS },
  );
  t.pass('every refusal was logged once, without what it carried');
});
