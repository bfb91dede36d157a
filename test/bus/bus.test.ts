import t from 'tap';
import { Bus } from '../../src/bus/bus.js';
import { BusClosedError, BusTimeoutError } from '../../src/bus/errors.js';
import type { BusEvent } from '../../src/bus/events.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { ANGRY_APPRAISAL } from '../support/moods.js';

const emotions = { joy: 0.5, sadness: 0.1, anger: 0.1, fear: 0.1, curiosity: 0.5 };
const loadedAvatar = {
  avatarShape: 'Circle',
  sentiment: { sentiment: 'neutral', positive: 0, negative: 0 },
  lastUpdated: '2026-11-21T09:00:00.000Z',
} as const;

/** A ready system's status report answering `correlationId`. */
function readyStatus(correlationId: string, at: string) {
  return {
    type: 'status.reported',
    correlationId,
    phase: 'ready',
    emotions,
    avatarShape: 'Circle',
    sentiment: { sentiment: 'neutral', positive: 0, negative: 0 },
    lastUpdated: at,
  } as const;
}

t.test('publish stamps `at` from the injected clock and keeps a given one', (t) => {
  const clock = fixedClock('2026-11-21T10:00:00.000Z');
  const bus = new Bus({ clock });
  const seen: BusEvent[] = [];
  bus.all().subscribe((event) => seen.push(event));
  bus.publish({ type: 'persistence.saved', file: 'emotions.json' });
  clock.advance(1500);
  bus.publish({ type: 'persistence.saved', file: 'emotions.json', at: '2020-01-01T00:00:00.000Z' });
  t.equal(seen[0]?.at, '2026-11-21T10:00:00.000Z');
  t.equal(seen[1]?.at, '2020-01-01T00:00:00.000Z');
  t.end();
});

t.test('the object published is the event delivered, stamped in place; without followers, all() costs nothing', (t) => {
  const bus = new Bus({ clock: fixedClock('2026-11-21T10:00:00.000Z') });
  const seen: BusEvent[] = [];
  bus.on('persistence.saved').subscribe((event) => seen.push(event));
  const input = { type: 'persistence.saved', file: 'emotions.json' } as const;
  const published = bus.publish(input);
  t.equal(published, input, 'publish returns the object it was given');
  t.equal(seen[0], input, 'subscribers get that same object');
  t.equal(published.at, '2026-11-21T10:00:00.000Z', 'with its time added');
  const all: BusEvent[] = [];
  const following = bus.all().subscribe((event) => all.push(event));
  bus.publish({ type: 'persistence.saved', file: 'emotions.json' });
  following.unsubscribe();
  bus.publish({ type: 'persistence.saved', file: 'emotions.json' });
  t.equal(all.length, 1, 'all() sees the events published while it is followed, and only those');
  t.equal(seen.length, 3, 'the typed stream sees every one');
  t.end();
});

t.test('on(type) sees only that type, typed', (t) => {
  const bus = new Bus();
  const loaded: string[] = [];
  bus.on('emotions.loaded').subscribe((event) => loaded.push(event.source));
  bus.publish({ type: 'persistence.saved', file: 'emotions.json' });
  bus.publish({ type: 'emotions.loaded', emotions, ...loadedAvatar, source: 'file' });
  t.same(loaded, ['file']);
  t.end();
});

t.test('events published during delivery wait their turn: one global order for everyone', (t) => {
  const bus = new Bus();
  const first: string[] = [];
  const second: string[] = [];
  bus.all().subscribe((event) => {
    first.push(event.type);
    if (event.type === 'chat.requested')
      bus.publish({ type: 'chat.accepted', correlationId: 'c1', session: 'visitor-a', message: 'hello' });
  });
  bus.all().subscribe((event) => second.push(event.type));
  bus.publish({ type: 'chat.requested', correlationId: 'c1', session: 'visitor-a', message: 'hello' });
  bus.publish({ type: 'status.requested', correlationId: 'c2' });
  const expected = ['chat.requested', 'chat.accepted', 'status.requested'];
  t.same(first, expected);
  t.same(second, expected, 'a later subscriber sees the same order, not the nested one first');
  t.end();
});

t.test('request resolves with the reply that carries its correlation id', async (t) => {
  const bus = new Bus();
  bus.on('status.requested').subscribe((request) => {
    bus.publish({
      type: 'status.reported',
      correlationId: 'someone-else',
      phase: 'failed',
      emotions,
      avatarShape: 'Square',
      sentiment: { sentiment: 'negative', positive: 0, negative: 1 },
      lastUpdated: request.at,
    });
    bus.publish(readyStatus(request.correlationId, request.at));
  });
  const reply = await bus.request({ type: 'status.requested' }, 'status.reported', 1000);
  t.equal(reply.phase, 'ready');
  t.equal(bus.pendingRequests, 0, 'the request is no longer pending');
});

t.test('request accepts several reply types and keeps a given correlation id', async (t) => {
  const bus = new Bus();
  bus.on('chat.requested').subscribe((request) => {
    bus.publish({ type: 'chat.rejected', correlationId: request.correlationId, reason: 'initializing', error: 'not yet' });
  });
  const reply = await bus.request(
    { type: 'chat.requested', correlationId: 'fixed-id', session: 'visitor-a', message: 'hi' },
    ['chat.replied', 'chat.rejected'],
    1000,
  );
  t.equal(reply.type, 'chat.rejected');
  t.equal(reply.correlationId, 'fixed-id');
  t.equal(bus.pendingRequests, 0);
});

t.test('concurrent requests each get their own reply, whatever the order of replies', async (t) => {
  const bus = new Bus();
  const pending: string[] = [];
  bus.on('chat.requested').subscribe((request) => pending.push(request.correlationId));
  const requests = ['one', 'two', 'three'].map((message) =>
    bus.request({ type: 'chat.requested', session: 'visitor-a', message }, 'chat.replied', 1000),
  );
  const messages = new Map<string, string>();
  bus.on('chat.requested').subscribe(() => undefined);
  // Reply in reverse order, echoing each request's message through its id.
  const ids = [...pending];
  for (const [index, id] of ids.entries()) messages.set(id, ['one', 'two', 'three'][index] ?? '');
  for (const id of ids.reverse()) {
    bus.publish({
      type: 'chat.replied',
      correlationId: id,
      response: `echo ${messages.get(id)}`,
      avatarShape: 'Circle',
      emotions,
      appraisal: ANGRY_APPRAISAL,
    });
  }
  const replies = await Promise.all(requests);
  t.same(
    replies.map((reply) => reply.response),
    ['echo one', 'echo two', 'echo three'],
  );
});

t.test('a request with no reply rejects with a timeout error and leaks no subscription', async (t) => {
  const bus = new Bus();
  const error = await bus.request({ type: 'status.requested' }, 'status.reported', 20).catch((e: unknown) => e);
  t.type(error, BusTimeoutError);
  t.match((error as Error).message, /no status\.reported reply to status\.requested .* within 20 ms/);
  t.equal(bus.pendingRequests, 0);
});

t.test('many requests share one reply subscription per type: none is left behind', async (t) => {
  const bus = new Bus();
  // Every subscription to a reply type goes through on(): count the bus's own.
  const on = bus.on.bind(bus);
  let replySubscriptions = 0;
  bus.on = ((type: Parameters<typeof on>[0]) => {
    if (type === 'status.reported') replySubscriptions += 1;
    return on(type);
  }) as typeof bus.on;
  bus.on('status.requested').subscribe((request) => bus.publish(readyStatus(request.correlationId, request.at)));
  await Promise.all(Array.from({ length: 100 }, () => bus.request({ type: 'status.requested' }, 'status.reported', 1000)));
  t.equal(replySubscriptions, 1);
  t.equal(bus.pendingRequests, 0);
});

t.test('a reply of a type the request did not ask for does not settle it', async (t) => {
  const bus = new Bus();
  bus.on('chat.requested').subscribe((request) => {
    bus.publish({ type: 'chat.accepted', correlationId: request.correlationId, session: 'visitor-a', message: 'wrong type' });
  });
  bus.request({ type: 'status.requested', correlationId: 'shared' }, 'status.reported', 1000).catch(() => undefined);
  const chat = bus.request({ type: 'chat.requested', session: 'visitor-a', message: 'hi' }, 'chat.accepted', 1000);
  t.match(await chat, { message: 'wrong type' });
  bus.publish({ type: 'chat.accepted', correlationId: 'shared', session: 'visitor-a', message: 'not a status' });
  t.equal(bus.pendingRequests, 1, 'the status request still waits');
  bus.close();
});

t.test('closing the bus rejects the requests still waiting', async (t) => {
  const bus = new Bus();
  const waiting = bus.request({ type: 'status.requested' }, 'status.reported', 60_000);
  bus.close();
  await t.rejects(waiting, { name: 'BusClosedError', message: /no reply to status\.requested \(.+\) will come/ });
  t.equal(bus.pendingRequests, 0);
});

t.test('a closed bus refuses to publish and rejects requests', async (t) => {
  const bus = new Bus();
  let completed = false;
  bus.all().subscribe({ complete: () => (completed = true) });
  bus.close();
  bus.close();
  t.ok(completed);
  t.throws(() => bus.publish({ type: 'persistence.saved', file: 'emotions.json' }), BusClosedError);
  await t.rejects(bus.request({ type: 'status.requested' }, 'status.reported', 1000), BusClosedError);
});

t.test('a request made while another event is delivered waits in the table and gets its later reply', async (t) => {
  const bus = new Bus();
  bus.on('status.requested').subscribe((request) => bus.publish(readyStatus(request.correlationId, request.at)));
  let inner: Promise<unknown> | undefined;
  let pendingDuringDelivery = -1;
  // The chat request's subscriber asks for the status: that request is queued behind the chat request,
  // so its reply cannot come during its own publish, and a second reply in the outer publish must not settle it twice.
  bus.on('chat.requested').subscribe((request) => {
    inner = bus.request({ type: 'status.requested' }, 'status.reported', 1000);
    pendingDuringDelivery = bus.pendingRequests;
    bus.publish({ type: 'chat.rejected', correlationId: request.correlationId, reason: 'initializing', error: 'not yet' });
  });
  const outer = await bus.request({ type: 'chat.requested', session: 'visitor-a', message: 'hi' }, ['chat.replied', 'chat.rejected'], 1000);
  t.equal(outer.type, 'chat.rejected', 'the outer request got its own reply');
  t.equal(pendingDuringDelivery, 1, 'the queued inner request was in the table');
  t.match(await inner, { type: 'status.reported', phase: 'ready' });
  t.equal(bus.pendingRequests, 0);
});

// The inline reply slot (the /api/avatar poll's path, docs/performance.md) relies on this invariant:
// delivery is synchronous, so a reply published by a subscriber of the request is delivered before the
// request's publish returns, and the request settles from the slot with no table entry and no timer.
t.test("a reply during the request's own publish settles it with no table entry and no timer", async (t) => {
  const bus = new Bus();
  let answeredBeforePublishReturned = false;
  bus.on('status.reported').subscribe(() => (answeredBeforePublishReturned = true));
  bus.on('status.requested').subscribe((request) => bus.publish(readyStatus(request.correlationId, request.at)));
  const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  const before = timers();
  const reply = bus.request({ type: 'status.requested' }, 'status.reported', 60_000);
  t.ok(answeredBeforePublishReturned, 'the reply was delivered inside the publish');
  t.equal(bus.pendingRequests, 0, 'no table entry');
  t.equal(timers(), before, 'no timer');
  t.match(await reply, { type: 'status.reported', phase: 'ready' });
});

t.test('an answered request leaves no timer behind', async (t) => {
  const bus = new Bus();
  const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  const before = timers();
  const asked = bus.request({ type: 'status.requested', correlationId: 'late' }, 'status.reported', 60_000);
  t.equal(timers(), before + 1, 'an unanswered request waits with its timer');
  bus.publish(readyStatus('late', '2026-11-23T09:00:00.000Z'));
  await asked;
  t.equal(timers(), before, 'its timer is cleared with the reply');
});
