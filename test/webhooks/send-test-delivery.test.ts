import { createServer, type IncomingHttpHeaders } from 'node:http';
import t from 'tap';
import { sendTestDelivery } from '../../src/webhooks/send-test-delivery.js';
import { fixture } from './helpers.js';

/** A local server that records one request and answers with the given type and body. */
async function recorder(t: { teardown(fn: () => void): void }, type: string, body: string) {
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += String(chunk)));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: text });
      res.writeHead(202, { 'content-type': type }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => void server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/x`, seen };
}

t.test('sends what the Hub sends: JSON, the secret header, a Webhook-Id', async (t) => {
  const { url, seen } = await recorder(t, 'text/plain', 'thanks');
  const res = await sendTestDelivery(url, fixture('repo-config-update'), { secret: 's', headers: { 'user-agent': 'test' } });
  t.same([res.status, res.body], [202, 'thanks'], 'a text answer stays text');
  const request = seen[0]!;
  t.equal(request.headers['content-type'], 'application/json');
  t.equal(request.headers['x-webhook-secret'], 's');
  t.match(request.headers['webhook-id'], /^[0-9a-f]{24}$/);
  t.equal(request.headers['user-agent'], 'test');
  t.same(JSON.parse(request.body), fixture('repo-config-update'));
  const noSecret = await sendTestDelivery(url, {}, { webhookId: 'given' });
  t.equal(seen[1]!.headers['x-webhook-secret'], undefined);
  t.equal(seen[1]!.headers['webhook-id'], 'given');
  t.equal(noSecret.status, 202);
});

t.test('a broken JSON answer is returned as its text', async (t) => {
  const { url } = await recorder(t, 'application/json', '{"half":');
  t.equal((await sendTestDelivery(url, {})).body, '{"half":');
});
