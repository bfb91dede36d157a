import t from 'tap';
import { CookieJar } from '../../support/cookie-jar.js';
import { SseReader } from '../../support/sse-client.js';
import { eventually } from '../../../testkit/eventually.js';
import { START, harness } from '../../support/harness.js';
import { completionStream } from '../../../testkit/provider-wire.js';
import { healthy, providerStandIn } from '../../../testkit/provider-stand-in.js';
import { heldProvider } from '../../../testkit/held-completions.js';
import { streamedChat } from '../../support/streaming.js';

const history = async (visitor: CookieJar) => (await visitor.fetch('/api/history')).json();

t.test("GET /api/history: this visitor's turns with their times, never another visitor's", async (t) => {
  const provider = providerStandIn(healthy('Hello, you.'));
  const { visitor, address } = await harness(t, { system: 'real', served: true, fetch: provider.fetch });
  t.same(await history(visitor), { messages: [] }, 'a new visitor has no history');
  t.equal((await visitor.chat('Hi there')).status, 200);
  t.equal((await visitor.chat('How are you?')).status, 200);
  const { messages } = await history(visitor);
  t.same(
    messages.map(({ role, content }: { role: string; content: string }) => [role, content]),
    [
      ['user', 'Hi there'],
      ['assistant', 'Hello, you.'],
      ['user', 'How are you?'],
      ['assistant', 'Hello, you.'],
    ],
  );
  for (const { at } of messages) t.equal(new Date(at).toISOString(), at, 'each turn has an ISO 8601 time');

  const stranger = new CookieJar(address);
  t.same(await history(stranger), { messages: [] }, "another visitor sees nothing of this visitor's conversation");
});

t.test('DELETE /api/history forgets the conversation: the next prompt starts afresh', async (t) => {
  const provider = providerStandIn(healthy('Noted.'));
  const { visitor } = await harness(t, { system: 'real', served: true, fetch: provider.fetch });
  await visitor.chat('My name is Ada');
  const forgotten = await visitor.fetch('/api/history', { method: 'DELETE' });
  t.equal(forgotten.status, 200);
  t.same(await forgotten.json(), { messages: [] });
  t.same(await history(visitor), { messages: [] });
  await visitor.chat('What is my name?');
  t.same(
    provider.prompts.at(-1)?.messages.map(({ role }) => role),
    ['system', 'user'],
    'the model gets no earlier turn',
  );
});

t.test(
  'history that cannot be read or forgotten answers 503 HISTORY_UNAVAILABLE, whether the system says so or says nothing',
  async (t) => {
    const { app, bus, system } = await harness(t, { system: 'fake' });
    system.stop(); // this test answers the history requests itself
    let answer: 'error' | 'silence' = 'error';
    bus.on('history.requested').subscribe(({ correlationId }) => {
      if (answer === 'error') bus.publish({ type: 'history.reported', correlationId, messages: [], error: 'the store is away' });
    });
    for (const kind of ['error', 'silence'] as const) {
      answer = kind;
      for (const method of ['GET', 'DELETE'] as const) {
        const response = await app.inject({ method, url: '/api/history' });
        t.equal(response.statusCode, 503, `${method}, ${kind}`);
        t.match(response.json(), { error: /cannot be read or forgotten right now/ });
        t.notMatch(response.body, /the store is away/, 'the cause goes to the log, not to the visitor');
      }
    }
  },
);

for (const embedded of [false, true]) {
  t.test(`a reply's time is when it committed, not when its message came (${embedded ? 'embedded store' : 'in process'})`, async (t) => {
    const provider = heldProvider();
    const { visitor, advance } = await harness(t, { system: 'real', served: true, fetch: provider.fetch, embedded });
    const streamed = streamedChat(visitor, 'Tell me something slowly');
    await eventually('the provider to be called', () => provider.completions() === 1 || undefined);
    advance(4000); // the model takes four seconds
    provider.body.end(completionStream('Here ', 'it is.'));
    await new SseReader((await streamed).body!).done;
    const { messages } = await history(visitor);
    t.same(
      messages.map(({ role, at }: { role: string; at: string }) => [role, at]),
      [
        ['user', START],
        ['assistant', new Date(Date.parse(START) + 4000).toISOString()],
      ],
    );
  });
}
