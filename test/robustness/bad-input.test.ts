import t from 'tap';
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { bodyLimitFor } from '../../src/http/app.js';
import { ASSETS, allowedStatuses, chatRequests, hasHugeHeaders, requests, type RawRequest } from '../support/bad-requests.js';
import { startRealService } from '../support/real-service.js';
import { completion, modelList } from '../../testkit/provider-wire.js';
import { readyApp } from '../support/harness.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';

// docs/robustness.md, bad input: thousands of generated requests against the real app and
// the real actor system (provider mocked), a few hundred more over real HTTP.
// Each must get a documented status, a JSON error when it fails, no provider
// call and no change of the emotions when rejected; a valid chat works after.
mockProviderHttp(t, '127.0.0.1');

const MAX = 64;
const LIMIT = bodyLimitFor(MAX);
const ENV = { MAX_MESSAGE_LENGTH: String(MAX), DRIFT_INTERVAL_MS: '86400000' };

interface Answer {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: Buffer;
  readonly connection?: string;
}

/** The checks every answer must pass, whatever the request; throws saying which failed. */
function checkAnswer(request: RawRequest, answer: Answer): void {
  const allowed = allowedStatuses(request);
  assert.ok(allowed.includes(answer.status), `status ${answer.status} for ${request.method} ${request.url}, allowed ${allowed.join(', ')}`);
  const path = request.url.split('?')[0]!;
  if (answer.status === 200 && path.startsWith('/assets/') && request.method === 'GET') {
    assert.ok(
      [...ASSETS.values()].some((asset) => asset.equals(answer.body)),
      `${path} served something that is not a page asset`,
    );
  }
  if (answer.status >= 400 && request.method !== 'HEAD') {
    assert.match(answer.type ?? '', /^application\/json/, `error ${answer.status} is JSON`);
    assert.equal(typeof JSON.parse(answer.body.toString()).error, 'string', 'an error string');
  }
}

/** Runs `send` for every generated request, checking the answer, the provider calls and the emotions. */
async function fuzz(
  arbitrary: fc.Arbitrary<RawRequest>,
  numRuns: number,
  send: (request: RawRequest) => Promise<Answer>,
  providerCalls: () => number,
): Promise<{ accepted: number; rejected: number }> {
  const emotions = async () => (await send({ method: 'GET', url: '/status', headers: {} })).body.toString();
  const counts = { accepted: 0, rejected: 0 };
  await fc.assert(
    fc.asyncProperty(arbitrary, async (request) => {
      const before = await emotions();
      const calls = providerCalls();
      const answer = await send(request);
      checkAnswer(request, answer);
      const chatted = answer.status === 200 && request.method === 'POST';
      counts[chatted ? 'accepted' : 'rejected'] += 1;
      assert.equal(providerCalls() - calls, chatted ? 1 : 0, 'the provider is asked once per accepted chat, never otherwise');
      if (!chatted) assert.equal(await emotions(), before, 'a rejected request leaves the emotions as they were');
    }),
    { numRuns, seed: 7_000_007, endOnFailure: true },
  );
  return counts;
}

t.test('app.inject: 2,000 random requests to every endpoint', async (t) => {
  const { app, calls, exits } = await readyApp(t, ENV);
  const send = async ({ method, url, headers, payload }: RawRequest): Promise<Answer> => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers,
      payload: payload === undefined ? undefined : Buffer.from(payload),
    });
    return { status: response.statusCode, type: response.headers['content-type'] as string | undefined, body: response.rawPayload };
  };
  const chats = () => calls.filter((call) => call.endsWith('/chat/completions')).length;

  const any = await fuzz(requests(MAX, LIMIT), 1200, send, chats);
  const chat = await fuzz(chatRequests(MAX, LIMIT), 800, send, chats);
  t.comment(
    `any endpoint: ${any.rejected} rejected, ${any.accepted} accepted; /api/chat: ${chat.rejected} rejected, ${chat.accepted} accepted`,
  );
  t.ok(any.rejected > 500 && chat.rejected > 250, 'most generated requests are rejected');
  t.ok(chat.accepted > 0, 'some generated messages are valid and chat');

  const valid = await send({
    method: 'POST',
    url: '/api/chat',
    headers: { 'content-type': 'application/json' },
    payload: '{"message":"still there?"}',
  });
  t.equal(valid.status, 200, 'a valid chat still works afterwards');
  t.equal(JSON.parse(valid.body.toString()).response, 'I hear you.');
  t.same(exits, [], 'the system never asked to exit');
});

t.test('real HTTP on port 0: 150 random requests, keep-alive, against the whole service', async (t) => {
  let chats = 0;
  mockedProvider().models().reply(200, modelList());
  const provider = mockedProvider();
  provider.scope.persist();
  provider.completions().reply(() => {
    chats += 1;
    return [200, completion('Over the wire.')];
  });
  const service = await startRealService(t, { LLM_API_KEY: 'sk-test-robust', ...ENV });
  t.match(await service.settled(), { is_initialized: true });
  const { hostname, port } = new URL(service.service.address);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  t.teardown(() => agent.destroy());
  const send = (request: RawRequest, { through = agent as Agent | false } = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const length = request.payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.payload)) };
      const headers = { ...request.headers, ...length };
      const outgoing = httpRequest({ agent: through, hostname, port, method: request.method, path: request.url, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            type: response.headers['content-type'],
            body: Buffer.concat(chunks),
            connection: response.headers.connection,
          }),
        );
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(request.payload);
    });

  const counts = await fuzz(
    requests(MAX, LIMIT).filter((request) => !hasHugeHeaders(request)),
    150,
    send,
    () => chats,
  );
  // What node's parser cannot read is answered before any route: JSON, and the connection closed, said so.
  const huge = { method: 'GET', url: '/health', headers: { 'x-huge': 'h'.repeat(20_000) } };
  t.ok(hasHugeHeaders(huge));
  const overflow = await send(huge, { through: false });
  t.match(overflow, { status: 431, connection: 'close' }, 'huge headers: 431');
  t.same(JSON.parse(overflow.body.toString()), { error: 'Request headers too large' });
  // A body sent without a length: its bytes arrive as a request line node cannot read. One write on a raw
  // socket, read to the end, so the answer does not depend on how the bytes are split into packets.
  const unframed = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end('OPTIONS /api/chat HTTP/1.1\r\nHost: x\r\n\r\n{"message":"hi"}'));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
  t.match(unframed, /HTTP\/1\.1 400 Bad Request\r\n(.+\r\n)*connection: close\r\n/i, 'a request node cannot read: 400, Connection: close');
  t.match(unframed, /\{"error":"Malformed HTTP request"\}$/, 'its body is a JSON error');
  t.equal((await send({ method: 'GET', url: '/health', headers: {} })).status, 200, 'the keep-alive client goes on without a reset');
  t.comment(`over HTTP: ${counts.rejected} rejected, ${counts.accepted} accepted`);
  t.ok(counts.rejected > 100, 'most generated requests are rejected');
  const valid = await service.chat({ message: 'still there?' });
  t.match(valid, { status: 200, body: { response: 'Over the wire.' } }, 'a valid chat still works afterwards');
  t.same(service.exits, []);
});
