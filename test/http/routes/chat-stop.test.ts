import t, { type Test } from 'tap';
import type { BusEvent } from '../../../src/bus/events.js';

/** The mood changes a chat committed. */
const chatChanges = (events: BusEvent[]) => ofType(events, 'mood.changed').filter(({ change }) => change.kind === 'chat');
import { CookieJar } from '../../support/cookie-jar.js';
import { eventually } from '../../../testkit/eventually.js';
import { SseReader } from '../../support/sse-client.js';
import { COMPLETION_END, completion, completionFrame } from '../../../testkit/provider-wire.js';
import { ofType } from '../../support/bus-events.js';
import { heldProvider } from '../../../testkit/held-completions.js';
import { harness } from '../../support/harness.js';
import { json, offering, providerStandIn } from '../../../testkit/provider-stand-in.js';
import { streamedChat } from '../../support/streaming.js';

// No nock here: its interception of fetch would hold a stream's pieces until the stream ends.

/** A streamed chat whose provider stream breaks after its first piece; resolves once the reply's stream has ended. */
async function brokenAfterOnePiece(t: Test, env: Record<string, string> = {}) {
  const { body, fetch, completions } = heldProvider();
  const service = await harness(t, { system: 'real', served: true, env, fetch, dialogueRetries: 2 });
  const reader = new SseReader((await streamedChat(service.visitor, 'tell me')).body!);
  body.write(completionFrame('Half a '));
  await eventually('the first piece', () => reader.data('token').length === 1);
  body.destroy(new Error('connection reset by the provider'));
  await reader.done;
  return { ...service, reader, completions };
}

t.test('a stream that breaks: event: error, nothing commits, ON_MODEL_FAILURE=stay keeps the service up', async (t) => {
  const { reader, visitor, events, exits, system, completions } = await brokenAfterOnePiece(t, { ON_MODEL_FAILURE: 'stay' });
  t.same(reader.data('token'), [{ text: 'Half a ' }]);
  t.match(reader.data('error'), [{ code: 'PROVIDER_FAILED', error: String }]);
  t.equal(completions(), 1, 'not tried again once a piece was sent (the visitor saw part of the reply)');
  t.equal(chatChanges(events).length, 0, 'the mood did not change');
  t.same(await (await visitor.fetch('/api/history')).json(), { messages: [] }, 'no user message, no partial reply');
  t.same(exits, []);
  t.equal(system.phase, 'ready');
});

t.test('a stream that breaks with ON_MODEL_FAILURE=exit: event: error, then the exit of docs/specification.md#states', async (t) => {
  const { reader, exited } = await brokenAfterOnePiece(t);
  t.match(reader.data('error'), [{ code: 'PROVIDER_FAILED' }]);
  t.equal(await exited, 1);
});

t.test('stop: the stream ends with event: error at once, the provider call is aborted, nothing commits, no exit', async (t) => {
  const { body, aborted, fetch } = heldProvider();
  const { visitor, events, exits, system, address } = await harness(t, { system: 'real', served: true, fetch });
  const response = await streamedChat(visitor, 'write me a long story');
  const reader = new SseReader(response.body!);
  body.write(completionFrame('Once upon '));
  await eventually('the first piece', () => reader.data('token').length === 1);

  const stranger = await new CookieJar(address).fetch('/api/chat/stop', { method: 'POST' });
  t.same(await stranger.json(), { stopped: false }, "another visitor cannot stop this visitor's reply");
  t.notOk(reader.ended);

  const stop = await visitor.fetch('/api/chat/stop', { method: 'POST' });
  t.equal(stop.status, 200);
  t.same(await stop.json(), { stopped: true });
  await reader.done;
  t.match(reader.data('error'), [{ code: 'CHAT_STOPPED', error: /stopped/ }]);
  t.equal(reader.data('done').length, 0);
  await aborted;
  t.pass('the provider call was aborted');
  t.equal(chatChanges(events).length, 0);
  t.equal(ofType(events, 'dialogue.failed').length, 0, 'a stop is no model failure');
  t.same(exits, []);
  t.equal(system.phase, 'ready');
  t.match(
    await (await visitor.fetch('/api/history')).json(),
    {
      messages: [
        { role: 'user', content: 'write me a long story', turn: response.headers.get('turn-id') },
        { role: 'assistant', content: 'Once upon ', stopped: true, turn: response.headers.get('turn-id') },
      ],
    },
    'the stopped reply stays in the history as it was, with the message that asked for it',
  );
});

t.test('a dropped connection is not a stop: the reply runs to its end, commits and is in the history', async (t) => {
  const { body, aborted, fetch } = heldProvider();
  const { visitor, events } = await harness(t, { system: 'real', served: true, fetch });
  let providerAborted = false;
  void aborted.then(() => (providerAborted = true));
  const client = new AbortController();
  const response = await streamedChat(visitor, 'I am happy', client.signal);
  const reader = new SseReader(response.body!);
  body.write(completionFrame('So '));
  await eventually('the first piece', () => reader.data('token').length === 1);
  client.abort();
  await reader.done;
  body.write(completionFrame('glad!'));
  body.end(COMPLETION_END);
  await eventually('the commit', () => chatChanges(events).length === 1);
  t.notOk(providerAborted, 'the provider call ran to its end');
  t.match(ofType(events, 'chat.replied'), [{ response: 'So glad!' }]);
  const history = await eventually('the exchange remembered', async () => {
    const { messages } = await (await visitor.fetch('/api/history')).json();
    return messages.length === 2 && messages;
  });
  t.match(history, [
    { role: 'user', content: 'I am happy' },
    { role: 'assistant', content: 'So glad!' },
  ]);
});

t.test('a stream that fails before its first piece is tried again within the deadline', async (t) => {
  // The first call fails (quick to retry); the next streams "Second " and "time.".
  const provider = providerStandIn(
    offering(() =>
      provider.prompts.length === 1
        ? { ...json(503, { error: { message: 'overloaded' } }), headers: { 'retry-after-ms': '0' } }
        : json(200, completion('Second time.')),
    ),
  );
  const { visitor, events } = await harness(t, {
    system: 'real',
    served: true,
    fetch: provider.fetch,
    dialogueRetries: 2,
    env: { ON_MODEL_FAILURE: 'stay' },
  });
  const reader = new SseReader((await streamedChat(visitor, 'hello')).body!);
  await reader.done;
  t.equal(provider.prompts.length, 2, 'the 503 was retried');
  t.same(reader.data('token'), [{ text: 'Second ' }, { text: 'time.' }]);
  t.match(reader.data('done'), [{ response: 'Second time.' }]);
  t.equal(chatChanges(events).length, 1);
});

t.test("a stream still going when the chat's LLM_TIMEOUT_MS runs out: aborted, PROVIDER_TIMEOUT, nothing commits", async (t) => {
  const { body, aborted, fetch, completions } = heldProvider();
  const { visitor, events, exits } = await harness(t, {
    system: 'real',
    served: true,
    fetch,
    dialogueRetries: 2,
    env: { ON_MODEL_FAILURE: 'stay', LLM_TIMEOUT_MS: '1500' },
  });
  const reader = new SseReader((await streamedChat(visitor, 'tell me everything')).body!);
  body.write(completionFrame('Once upon '));
  // Then silence: the deadline, not the provider, ends the reply.
  await aborted;
  await reader.done;
  t.same(reader.data('token'), [{ text: 'Once upon ' }]);
  t.match(reader.data('error'), [{ code: 'PROVIDER_TIMEOUT', error: String }]);
  t.equal(completions(), 1, 'not tried again after a piece');
  t.equal(chatChanges(events).length, 0, 'the mood did not change');
  t.same(exits, []);
});
