import { readFileSync } from 'node:fs';
import t from 'tap';
import { ERRORS } from '../../../src/errors/catalogue.js';
import type { BusEvent } from '../../../src/bus/events.js';
import { CookieJar } from '../../support/cookie-jar.js';
import { eventually } from '../../../testkit/eventually.js';
import { SseReader } from '../../support/sse-client.js';
import { COMPLETION_END, completionFrame } from '../../../testkit/provider-wire.js';
import { ofType } from '../../support/bus-events.js';
import { heldCalls } from '../../../testkit/held-completions.js';
import { harness } from '../../support/harness.js';
import { streamedChat, streamedTo } from '../../support/streaming.js';

const ownFormatFile = readFileSync(new URL('../../fixtures/history-import/emotion-hub.json', import.meta.url), 'utf8');

// Turns: the Turn-Id, the frames' ids, resuming (GET /api/chat/turns/:id), stop by turn, regenerate
// and edit, and the visitor's feed. No nock: its interception would hold a stream's pieces until it ends.

/** The mood changes chats committed. */
const chatChanges = (events: BusEvent[]) => ofType(events, 'mood.changed').filter(({ change }) => change.kind === 'chat');

/** `GET /api/chat/turns/:id` as the page asks it after a reload or a dropped connection. */
function resume(visitor: CookieJar, turn: string, lastEventId?: string) {
  return visitor.fetch(`/api/chat/turns/${turn}`, {
    headers: { accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) },
  });
}

const history = async (visitor: CookieJar) => ((await (await visitor.fetch('/api/history')).json()) as { messages: any[] }).messages;

/** One exchange, streamed to its end and committed. */
async function exchange(visitor: CookieJar, calls: ReturnType<typeof heldCalls>['calls'], message: string, reply: string) {
  const reader = new SseReader((await streamedChat(visitor, message)).body!);
  await eventually('the call at the provider', () => calls.length > 0 && calls.at(-1)?.messages.at(-1)?.content === message);
  calls.at(-1)!.body.end(completionFrame(reply) + COMPLETION_END);
  await reader.done;
  return reader;
}

t.test(
  'a turn: Turn-Id, ids that grow, and a resume after a dropped connection gets each missed frame once, then the rest live',
  async (t) => {
    const { calls, fetch } = heldCalls();
    const { visitor, address } = await harness(t, { system: 'real', served: true, fetch });
    const client = new AbortController();
    const response = await streamedChat(visitor, 'tell me a story', client.signal);
    const turn = response.headers.get('turn-id');
    t.match(turn, /^[0-9a-f-]{36}$/, 'the response names its turn');
    const first = new SseReader(response.body!);
    await eventually('the provider call', () => calls.length === 1);
    calls[0]!.body.write(completionFrame('Once '));
    await eventually('the first piece', () => first.frames.length === 1);
    client.abort();
    await first.done;
    // Written while nobody listens: the resume must bring them.
    calls[0]!.body.write(completionFrame('upon '));
    calls[0]!.body.write(completionFrame('a time'));

    t.equal((await resume(new CookieJar(address), turn!)).status, 404, "another visitor cannot read this visitor's turn");
    t.equal((await resume(visitor, 'no-such-turn')).status, 404);
    t.equal((await resume(visitor, turn!, 'seven')).status, 400, 'a Last-Event-ID that is no frame id');

    const again = await resume(visitor, turn!, first.frames[0]!.id);
    t.equal(again.status, 200);
    t.match(again.headers.get('content-type'), /text\/event-stream/);
    const second = new SseReader(again.body!);
    await eventually('the missed pieces', () => second.frames.length === 2);
    calls[0]!.body.end(completionFrame('.') + COMPLETION_END);
    await second.done;
    const all = [...first.frames, ...second.frames];
    t.same(
      all.map((frame) => frame.id),
      ['1', '2', '3', '4', '5'],
      'every frame once, ids growing by one',
    );
    t.same(
      all.filter((frame) => frame.event === 'token').map((frame) => JSON.parse(frame.data).text),
      ['Once ', 'upon ', 'a time', '.'],
    );
    t.match(second.data('done'), [{ response: 'Once upon a time.' }]);

    const fromStart = new SseReader((await resume(visitor, turn!)).body!);
    await fromStart.done;
    t.same(
      fromStart.frames.map((frame) => frame.id),
      ['1', '2', '3', '4', '5'],
      'without Last-Event-ID, every frame of an ended turn, then the stream ends',
    );
    for (const seen of ['5', '6', '999']) {
      const none = new SseReader((await resume(visitor, turn!, seen)).body!);
      await eventually(`the stream after Last-Event-ID ${seen} to end`, () => none.ended);
      t.same(none.frames, [], `Last-Event-ID ${seen}, at or past the last frame of an ended turn: nothing again, and the stream ends`);
    }
    const head = await visitor.fetch(`/api/chat/turns/${turn}`, { method: 'HEAD' });
    t.equal(head.status, 200, 'HEAD on a turn: its headers');
    t.equal(await head.text(), '');
    t.match(await history(visitor), [
      { role: 'user', content: 'tell me a story', turn },
      { role: 'assistant', content: 'Once upon a time.', turn },
    ]);
  },
);

t.test('stop by turn: only that turn stops and is kept, marked stopped; the other runs on', async (t) => {
  const { calls, fetch } = heldCalls();
  const { visitor, events } = await harness(t, { system: 'real', served: true, fetch });
  const a = await streamedChat(visitor, 'first tab asks');
  const readerA = new SseReader(a.body!);
  await eventually('the first call', () => calls.length === 1);
  const b = await streamedChat(visitor, 'second tab asks');
  const readerB = new SseReader(b.body!);
  await eventually('the second call', () => calls.length === 2);
  calls[0]!.body.write(completionFrame('Half'));
  await eventually('a piece of the first turn', () => readerA.data('token').length === 1);

  const bad = await visitor.fetch('/api/chat/stop', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ turn: 5 }),
  });
  t.equal(bad.status, 400);
  const stop = await visitor.fetch('/api/chat/stop', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ turn: a.headers.get('turn-id') }),
  });
  t.same(await stop.json(), { stopped: true });
  await readerA.done;
  t.match(readerA.data('error'), [{ code: 'CHAT_STOPPED' }]);
  t.notOk(readerB.ended, "the other tab's reply goes on");
  calls[1]!.body.end(completionFrame('Whole reply') + COMPLETION_END);
  await readerB.done;
  t.match(readerB.data('done'), [{ response: 'Whole reply' }]);
  t.equal(chatChanges(events).length, 1, 'only the reply that ended moved the mood');
  t.match(await history(visitor), [
    { role: 'user', content: 'first tab asks' },
    { role: 'assistant', content: 'Half', stopped: true },
    { role: 'user', content: 'second tab asks' },
    { role: 'assistant', content: 'Whole reply' },
  ]);
});

t.test('regenerate: a new reply to the same message, the earlier in alternatives, the mood does not move', async (t) => {
  const { calls, fetch } = heldCalls();
  const { visitor, events } = await harness(t, { system: 'real', served: true, fetch });
  const nothing = await visitor.fetch('/api/chat/regenerate', { method: 'POST' });
  t.equal(nothing.status, 409, 'nothing to regenerate before a first message');
  t.match(await nothing.json(), { error: /no last message/ });

  await exchange(visitor, calls, 'I am so happy today', 'Wonderful!');
  t.equal(chatChanges(events).length, 1);
  const moodBefore = ofType(events, 'mood.changed').length;

  const response = await streamedTo(visitor, '/api/chat/regenerate');
  t.ok(response.headers.get('turn-id'), 'a regenerate streamed is a turn too');
  const reader = new SseReader(response.body!);
  await eventually('the regenerate at the provider', () => calls.length === 2);
  t.same(
    calls[1]!.messages.slice(1),
    [{ role: 'user', content: 'I am so happy today' }],
    'the model sees the conversation before the last exchange, then the same message',
  );
  calls[1]!.body.end(completionFrame('How lovely!') + COMPLETION_END);
  await reader.done;
  const [done] = reader.data('done');
  t.match(done, { response: 'How lovely!', is_initialized: true, avatar_shape: String });
  t.equal(ofType(events, 'mood.changed').length, moodBefore, 'no change, not even decay');
  t.equal(ofType(events, 'sentiment.analyzed').length, 1, 'the message is not read again');
  t.same(done.emotions, (await (await visitor.fetch('/api/avatar')).json()).emotions, 'the reply carries the mood as it is');
  const messages = await history(visitor);
  t.equal(messages.length, 2);
  t.match(messages[1], { role: 'assistant', content: 'How lovely!', alternatives: [{ content: 'Wonderful!' }] });
  t.notOk(messages[0].alternatives, 'the message itself did not change');
});

t.test('edit: a new exchange in place of the last, the earlier kept; the mood moves by the new message', async (t) => {
  const { calls, fetch } = heldCalls();
  const { visitor, events } = await harness(t, { system: 'real', served: true, fetch });
  await exchange(visitor, calls, 'hello there', 'Hi!');
  await exchange(visitor, calls, 'I hate rainy days', 'Sorry to hear.');
  const bad = await visitor.fetch('/api/chat/edit', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: '  ' }),
  });
  t.equal(bad.status, 400, 'an edit needs a message');
  const reader = new SseReader((await streamedTo(visitor, '/api/chat/edit', { message: 'I love rainy days' })).body!);
  await eventually('the edit at the provider', () => calls.length === 3);
  t.same(calls[2]!.messages.slice(1), [
    { role: 'user', content: 'hello there' },
    { role: 'assistant', content: 'Hi!' },
    { role: 'user', content: 'I love rainy days' },
  ]);
  // While that reply streams, a redo would act on the exchange before it: refused, nothing asked.
  for (const [path, body] of [
    ['/api/chat/regenerate', undefined],
    ['/api/chat/edit', { message: 'no, something else' }],
  ] as const) {
    const early = await visitor.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body ?? {}),
    });
    t.equal(early.status, 409, `${path} while a reply streams`);
    t.same(await early.json(), { error: ERRORS.REPLY_IN_PROGRESS.message });
  }
  t.equal(calls.length, 3, 'the provider was not asked again');
  // An import would put the reply after the imported messages, or (replacing) into no conversation.
  for (const query of ['', '?replace=1']) {
    const early = await visitor.fetch(`/api/history/import${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ownFormatFile,
    });
    t.equal(early.status, 409, `an import${query} while a reply streams`);
    t.same(await early.json(), { error: ERRORS.IMPORT_DURING_REPLY.message });
  }
  calls[2]!.body.end(completionFrame('Me too!') + COMPLETION_END);
  await reader.done;
  t.match(reader.data('done'), [{ response: 'Me too!' }]);
  t.equal(chatChanges(events).length, 3, 'the edited message moved the mood like any message');
  t.match(ofType(events, 'sentiment.analyzed').at(-1), { sentiment: { sentiment: 'positive' } });
  const messages = await history(visitor);
  t.equal(messages.length, 4);
  t.match(messages[2], { role: 'user', content: 'I love rainy days', alternatives: [{ content: 'I hate rainy days' }] });
  t.match(messages[3], { role: 'assistant', content: 'Me too!', alternatives: [{ content: 'Sorry to hear.' }] });
});

t.test("the visitor's feed: another tab hears of each turn, its end, and a new conversation", async (t) => {
  const { calls, fetch } = heldCalls();
  const { visitor, address } = await harness(t, { system: 'real', served: true, fetch });
  const feed = new SseReader((await visitor.fetch('/api/chat/feed', { headers: { accept: 'text/event-stream' } })).body!);
  const stranger = new SseReader(
    (await new CookieJar(address).fetch('/api/chat/feed', { headers: { accept: 'text/event-stream' } })).body!,
  );
  await eventually('the first frames', () => feed.data('mood').length === 1 && stranger.data('mood').length === 1);
  t.same(feed.data('running'), [{ turns: [] }]);
  const response = await streamedChat(visitor, 'hello from tab 1');
  const reader = new SseReader(response.body!);
  await eventually('the call', () => calls.length === 1);
  const turn = response.headers.get('turn-id');
  await eventually('the turn on the feed', () => feed.data('turn').length === 1);
  t.same(feed.data('turn'), [{ id: turn, message: 'hello from tab 1' }]);
  const late = new SseReader((await visitor.fetch('/api/chat/feed', { headers: { accept: 'text/event-stream' } })).body!);
  await eventually('a late tab', () => late.data('mood').length === 1);
  t.same(late.data('running'), [{ turns: [{ id: turn, message: 'hello from tab 1' }] }], 'a tab that opens while a turn runs learns of it');
  calls[0]!.body.end(completionFrame('Hi') + COMPLETION_END);
  await reader.done;
  await eventually('the end on the feed', () => feed.data('ended').length === 1);
  await visitor.fetch('/api/history', { method: 'DELETE' });
  await eventually('the new conversation on the feed', () => feed.data('cleared').length === 1);
  t.same(
    stranger.frames.map((frame) => frame.event),
    ['running', 'mood', 'mood'],
    "another visitor's feed hears nothing of it but the mood (the reply's commit)",
  );
  t.same(
    feed.data('frame').map((frame) => [frame.turn, frame.id, frame.event]),
    [
      [turn, 1, 'token'],
      [turn, 2, 'done'],
    ],
    "the turn's frames, for the tabs that follow it without a stream of their own",
  );
});
