import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openEmbeddedStore } from '../../src/embedded/embedded-store.js';
import { fixedClock } from '../../src/runtime/clock.js';
import type { ConversationStore } from '../../src/conversations/conversation-store.js';
import { MemoryConversationStore } from '../../src/conversations/memory-conversation-store.js';
import { conversationBytes, withExchange, type SessionBounds } from '../../src/conversations/session-bounds.js';
import { DEFAULT_MAX_SESSION_BYTES } from '../../src/config/defaults.js';
import { testDir } from '../support/test-dir.js';

// MAX_SESSION_BYTES, MAX_SESSIONS and SESSION_IDLE_MS hold alike in the in-process store and the embedded one.
const START = '2026-11-21T10:00:00.000Z';

type Bounded = ConversationStore & { readonly size: number; readonly bytes: number };
const stores: Record<string, (t: Test, bounds: SessionBounds) => Bounded> = {
  memory: (_t, bounds) => new MemoryConversationStore(bounds),
  embedded: (t, bounds) => {
    const store = openEmbeddedStore(join(testDir(t), 'emotions.json'), bounds);
    t.teardown(() => store.close());
    return store.conversations;
  },
};

const kilobyte = (c: string): string => c.repeat(512);

for (const [kind, make] of Object.entries(stores)) {
  t.test(`${kind}: MAX_SESSION_BYTES forgets the least recently used first`, async (t) => {
    const clock = fixedClock(START);
    const store = make(t, { maxSessions: 100, idleMs: 60_000, maxBytes: 3 * 1024, clock });
    for (const session of ['ada', 'bob', 'cy']) await store.remember(session, kilobyte('m'), kilobyte('r'));
    t.equal(store.size, 3);
    t.equal(store.bytes, 3 * 1024, 'three conversations of 1 KB each fill the bound');
    await store.history('ada'); // ada is now the most recently used
    await store.remember('dee', kilobyte('m'), kilobyte('r'));
    t.same(await store.history('bob'), [], 'bob, least recently used, is forgotten');
    t.equal((await store.history('ada')).length, 2);
    t.equal((await store.history('dee')).length, 2);
    t.ok(store.bytes <= 3 * 1024, `${store.bytes} bytes held`);
  });

  t.test(`${kind}: one conversation larger than the bound keeps its newest exchanges that fit`, async (t) => {
    const clock = fixedClock(START);
    const store = make(t, { maxSessions: 100, idleMs: 60_000, maxBytes: 1024, clock });
    await store.remember('ada', kilobyte('a'), 'ok');
    await store.remember('ada', kilobyte('b'), 'ok');
    t.same(
      (await store.history('ada')).map((turn) => turn.content[0]),
      ['b', 'o'],
    );
    await store.remember('ada', 'x'.repeat(4096), 'too long');
    t.same(await store.history('ada'), [], 'an exchange larger than the whole bound is not kept');
  });

  t.test(`${kind}: an idle session is forgotten after SESSION_IDLE_MS, and MAX_SESSIONS holds`, async (t) => {
    const clock = fixedClock(START);
    const store = make(t, { maxSessions: 2, idleMs: 1000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock });
    await store.remember('ada', 'a', 'ra');
    await store.remember('bob', 'b', 'rb');
    await store.remember('cy', 'c', 'rc');
    t.equal(store.size, 2);
    t.same(await store.history('ada'), [], 'ada, least recently used, is forgotten');
    clock.advance(1001);
    t.same(await store.history('bob'), [], 'idle for SESSION_IDLE_MS: forgotten');
  });
}

t.test('conversationBytes counts UTF-8 bytes of the text', async (t) => {
  t.equal(conversationBytes([{ role: 'user', content: 'é€' }]), 5);
  t.equal(conversationBytes([]), 1, 'never 0: lru-cache wants a positive size');
  t.same(
    withExchange(
      [],
      { message: 'a', reply: 'b', times: { message: '2026-11-21T10:00:00.000Z', reply: '2026-11-21T10:00:01.000Z' } },
      20,
      1024,
    ),
    [
      { role: 'user', content: 'a', at: '2026-11-21T10:00:00.000Z' },
      { role: 'assistant', content: 'b', at: '2026-11-21T10:00:01.000Z' },
    ],
  );
});
