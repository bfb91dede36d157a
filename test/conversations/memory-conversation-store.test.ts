import t from 'tap';
import { fixedClock } from '../../src/runtime/clock.js';
import { DEFAULT_MEMORY_EXCHANGES } from '../../src/conversations/conversation-store.js';
import { MemoryConversationStore } from '../../src/conversations/memory-conversation-store.js';
import { DEFAULT_MAX_SESSION_BYTES } from '../../src/config/defaults.js';

const START = '2026-11-21T10:00:00.000Z';

function store(options: Partial<ConstructorParameters<typeof MemoryConversationStore>[0]> = {}) {
  const clock = fixedClock(START);
  return {
    clock,
    store: new MemoryConversationStore({ maxSessions: 100, idleMs: 60_000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock, ...options }),
  };
}

t.test('each session keeps its own last exchanges, oldest forgotten first', async (t) => {
  const { store: conversations } = store({ maxExchanges: 2 });
  await conversations.remember('ada', 'one', 'reply one');
  await conversations.remember('bob', 'hello', 'hi bob');
  await conversations.remember('ada', 'two', 'reply two');
  await conversations.remember('ada', 'three', 'reply three');
  t.same(await conversations.history('ada'), [
    { role: 'user', content: 'two' },
    { role: 'assistant', content: 'reply two' },
    { role: 'user', content: 'three' },
    { role: 'assistant', content: 'reply three' },
  ]);
  t.same(await conversations.history('bob'), [
    { role: 'user', content: 'hello' },
    { role: 'assistant', content: 'hi bob' },
  ]);
  t.same(await conversations.history('nobody'), [], 'an unknown session has no history');
});

t.test('by default a session keeps 10 exchanges', async (t) => {
  const { store: conversations } = store();
  for (let i = 0; i < 12; i += 1) await conversations.remember('ada', `m${i}`, `r${i}`);
  const history = await conversations.history('ada');
  t.equal(history.length, 2 * DEFAULT_MEMORY_EXCHANGES);
  t.same(history[0], { role: 'user', content: 'm2' });
});

t.test('at most maxSessions sessions: the least recently used is forgotten first', async (t) => {
  const { store: conversations } = store({ maxSessions: 2 });
  await conversations.remember('ada', 'a', 'ra');
  await conversations.remember('bob', 'b', 'rb');
  await conversations.history('ada'); // ada is now the most recently used
  await conversations.remember('cy', 'c', 'rc');
  t.equal(conversations.size, 2);
  t.same(await conversations.history('bob'), [], 'bob, least recently used, is forgotten');
  t.equal((await conversations.history('ada')).length, 2);
  t.equal((await conversations.history('cy')).length, 2);
});

t.test('an idle session is forgotten after idleMs; every use renews it', async (t) => {
  const { store: conversations, clock } = store({ idleMs: 30 * 60_000 });
  await conversations.remember('ada', 'a', 'ra');
  await conversations.remember('bob', 'b', 'rb');
  clock.advance(20 * 60_000);
  await conversations.history('ada');
  clock.advance(20 * 60_000);
  t.same(await conversations.history('bob'), [], 'bob was idle 40 minutes');
  t.equal((await conversations.history('ada')).length, 2, 'ada was read 20 minutes ago');
  clock.advance(30 * 60_000 + 1);
  t.same(await conversations.history('ada'), []);
});

t.test('close forgets everything', async (t) => {
  const { store: conversations } = store();
  await conversations.remember('ada', 'a', 'ra');
  await conversations.close();
  t.equal(conversations.size, 0);
});

t.test('messages carry the time each side was said; forget drops the session', async (t) => {
  const { store: conversations } = store();
  await conversations.remember('ada', 'hello', 'hi ada', { message: '2026-11-21T10:00:00.000Z', reply: '2026-11-21T10:00:02.000Z' });
  await conversations.remember('ada', 'untimed', 'still kept');
  t.same(await conversations.messages('ada'), [
    { role: 'user', content: 'hello', at: '2026-11-21T10:00:00.000Z' },
    { role: 'assistant', content: 'hi ada', at: '2026-11-21T10:00:02.000Z' },
    { role: 'user', content: 'untimed', at: '1970-01-01T00:00:00.000Z' },
    { role: 'assistant', content: 'still kept', at: '1970-01-01T00:00:00.000Z' },
  ]);
  t.same((await conversations.history('ada'))[0], { role: 'user', content: 'hello' }, 'the model gets no times');
  await conversations.remember('bob', 'hey', 'hey bob');
  await conversations.forget('ada');
  t.same(await conversations.messages('ada'), []);
  t.same(await conversations.history('ada'), []);
  t.equal((await conversations.messages('bob')).length, 2, 'another session is kept');
});
