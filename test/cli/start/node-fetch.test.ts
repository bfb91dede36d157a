import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import t from 'tap';
import WebhooksLs from '../../../src/cli/commands/webhooks/ls.js';
import { nodeFetch } from '../../../src/cli/start/node-fetch.js';
import { HUB, TOKEN, urlWebhookJson, useNock } from '../../support/hub-fixtures.js';
import { runWebhooksCommand } from '../../support/run-webhooks-command.js';

useNock(t);

// The CLI's cold start (docs/performance.md, target ≤ 3.5 × `node -e 0`) relies on this: the hub
// calls of a command go through node:http(s) and never touch the global fetch, whose first call loads
// and compiles undici (measured 136 to 250 ms more for `hub webhooks ls` on a loaded machine).
t.test('a hub command never touches the global fetch', async (t) => {
  const globalFetch = globalThis.fetch;
  let fetched = 0;
  globalThis.fetch = (async () => {
    fetched += 1;
    throw new Error('the global fetch was used');
  }) as typeof fetch;
  t.teardown(() => void (globalThis.fetch = globalFetch));
  const scope = nock(HUB).matchHeader('authorization', `Bearer ${TOKEN}`).get('/api/settings/webhooks').reply(200, [urlWebhookJson]);
  const { exitCode, stdout } = await runWebhooksCommand(WebhooksLs, ['-q']);
  t.equal(exitCode, 0);
  t.equal(stdout, `${urlWebhookJson.id}\n`);
  t.ok(scope.isDone());
  t.equal(fetched, 0);
});

t.test('what a hub call reads of an answer: status, ok, headers by any case, the body; the request as given', async (t) => {
  nock.enableNetConnect('127.0.0.1');
  t.teardown(() => nock.disableNetConnect());
  const seen: { method?: string; auth?: string; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ method: request.method, auth: request.headers.authorization, body });
      response.writeHead(404, { 'x-request-id': 'req-1', 'set-cookie': ['a=1', 'b=2'] }).end('{"error":"gone"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/x`;
  const answer = await nodeFetch(url, { method: 'POST', headers: { authorization: 'Bearer hf_x' }, body: '{"a":1}' });
  t.match(answer, { status: 404, ok: false });
  t.equal(answer.headers.get('X-Request-Id'), 'req-1');
  t.equal(answer.headers.get('set-cookie'), 'a=1, b=2');
  t.equal(answer.headers.get('x-missing'), null);
  t.equal(await answer.text(), '{"error":"gone"}');
  t.same(seen, [{ method: 'POST', auth: 'Bearer hf_x', body: '{"a":1}' }]);
  await t.rejects(nodeFetch(url, { method: 'GET', headers: {}, signal: AbortSignal.abort() }), { name: 'AbortError' });
});
