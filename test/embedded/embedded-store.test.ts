import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { DurableMoodLedger, type MoodJournal } from '../../src/embedded/durable-mood-ledger.js';
import { embeddedStorePath, openEmbeddedStore } from '../../src/embedded/embedded-store.js';
import { defaultState, foldMoodChange } from '../../src/emotions/state.js';
import type { MoodChange } from '../../src/mood-ledger/mood-ledger.js';
import { fixedClock, systemClock } from '../../src/runtime/clock.js';
import { DEFAULT_MAX_SESSION_BYTES } from '../../src/config/defaults.js';
import { testDir } from '../support/test-dir.js';

const START = '2026-11-21T10:00:00.000Z';
const LOVE = { sentiment: 'positive', positive: 0.43, negative: 0 } as const;
const chat = (n: number): MoodChange => ({ kind: 'chat', correlationId: `c${n}`, sentiment: LOVE, at: `2026-11-21T10:00:0${n}.000Z` });

t.test('the database lives beside the emotions file', async (t) => {
  t.equal(embeddedStorePath('/data/emotions.json'), '/data/emotions.db');
  t.equal(embeddedStorePath('/data/state'), '/data/state.db');
});

t.test('a committed chat, its mood and its exchange, is there after the store reopens', async (t) => {
  const file = join(testDir(t), 'emotions.json');
  const bounds = { maxSessions: 10, idleMs: 60_000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock: fixedClock(START) };
  const first = openEmbeddedStore(file, bounds);
  t.equal(first.ledger.held?.state, undefined, 'a new store holds no state');
  const delivered: MoodChange[] = [];
  first.ledger.subscribe((change) => delivered.push(change));
  first.ledger.startFrom(defaultState(START));
  const times = { message: START, reply: chat(1).at };
  await first.ledger.append(chat(1), { session: 'ada', message: 'I love this', reply: 'Glad to hear it', times });
  await first.ledger.append({ kind: 'drift', deltas: { joy: 0.01, sadness: 0, anger: 0, fear: 0, curiosity: -0.01 }, at: chat(2).at });
  t.same(
    delivered.map((change) => change.kind),
    ['chat', 'drift'],
    'delivered once committed',
  );
  t.ok(existsSync(embeddedStorePath(file)));
  // No close: as after a SIGKILL, nothing but the commits is on disk.
  const second = openEmbeddedStore(file, bounds);
  t.teardown(() => Promise.all([first.close(), second.close()]));
  const expected = foldMoodChange(foldMoodChange(defaultState(START), chat(1)), delivered[1]!);
  t.same(second.ledger.held?.state, expected, 'the state after the last change');
  t.same(await second.conversations.history('ada'), [
    { role: 'user', content: 'I love this' },
    { role: 'assistant', content: 'Glad to hear it' },
  ]);
  t.same(
    await second.conversations.messages('ada'),
    [
      { role: 'user', content: 'I love this', at: START },
      { role: 'assistant', content: 'Glad to hear it', at: chat(1).at },
    ],
    'with the time each turn was said, for the visitor',
  );
});

t.test('a forgotten conversation is gone, from disk too', async (t) => {
  const file = join(testDir(t), 'emotions.json');
  const bounds = { maxSessions: 10, idleMs: 60_000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock: fixedClock(START) };
  const first = openEmbeddedStore(file, bounds);
  await first.conversations.remember('ada', 'forget me', 'done');
  await first.conversations.remember('bob', 'keep me', 'kept');
  await first.conversations.forget('ada');
  t.same(await first.conversations.messages('ada'), [], 'forgotten at once');
  await first.close();
  const second = openEmbeddedStore(file, bounds);
  t.teardown(() => second.close());
  t.same(await second.conversations.history('ada'), [], 'and not back after a restart');
  t.equal((await second.conversations.history('bob')).length, 2, "another visitor's is kept");
});

t.test('a commit that fails changes nothing: the chat is refused, and the next one folds from the old state', async (t) => {
  let failing = false;
  const committed: unknown[] = [];
  const journal: MoodJournal = {
    kept: undefined,
    commit(state, exchanges) {
      if (failing) throw new Error('MDB_MAP_FULL: Environment mapsize limit reached');
      committed.push({ state, exchanges });
    },
    committedElsewhere: () => undefined,
  };
  const ledger = new DurableMoodLedger(journal);
  const delivered: MoodChange[] = [];
  ledger.subscribe((change) => delivered.push(change));
  await t.rejects(ledger.append(chat(1)), /the state to start from/, 'nothing before the system says where it starts');
  ledger.startFrom(defaultState(START));
  t.same(committed, [{ state: defaultState(START), exchanges: [] }], 'an empty store takes the start as its first state');
  failing = true;
  const times = { message: START, reply: chat(1).at };
  await t.rejects(ledger.append(chat(1), { session: 'ada', message: 'm', reply: 'r', times }), /MDB_MAP_FULL/);
  t.same(delivered, [], 'a change that was not committed never takes effect');
  failing = false;
  await ledger.append(chat(2));
  t.same(committed.at(-1), { state: foldMoodChange(defaultState(START), chat(2)), exchanges: [] });
  await ledger.close();
  await t.rejects(ledger.append(chat(3)), /closed/, 'nothing commits once closed (a failed system closes it)');
});

t.test('changes appended together are committed together: the last state once, every exchange in order, then delivered', async (t) => {
  const commits: { state: unknown; sessions: string[] }[] = [];
  let failing = false;
  const journal: MoodJournal = {
    kept: undefined,
    commit(state, exchanges) {
      if (failing) throw new Error('MDB_MAP_FULL: Environment mapsize limit reached');
      commits.push({ state, sessions: exchanges.map(({ session, message }) => `${session}:${message}`) });
    },
    committedElsewhere: () => undefined,
  };
  const ledger = new DurableMoodLedger(journal);
  ledger.startFrom(defaultState(START));
  const delivered: { correlationId: string; joy: number }[] = [];
  ledger.subscribe(
    (change, state) => change.kind === 'chat' && delivered.push({ correlationId: change.correlationId, joy: state.emotions.joy }),
  );
  const exchange = (session: string, message: string) => ({ session, message, reply: 'r', times: { message: START, reply: START } });
  const settled: string[] = [];
  const appends = [
    ledger.append(chat(1), exchange('ada', 'one')).then(() => settled.push('c1')),
    ledger.append(chat(2), exchange('bob', 'two')).then(() => settled.push('c2')),
    ledger.append(chat(3), exchange('ada', 'three')).then(() => settled.push('c3')),
  ];
  t.same(delivered, [], 'nothing takes effect before the commit');
  await Promise.all(appends);
  const states = [defaultState(START)];
  for (const n of [1, 2, 3]) states.push(foldMoodChange(states.at(-1)!, chat(n)));
  t.same(
    commits.slice(1),
    [{ state: states[3], sessions: ['ada:one', 'bob:two', 'ada:three'] }],
    'one commit: the state after the last change, the exchanges in the order said',
  );
  t.same(
    delivered,
    [1, 2, 3].map((n) => ({ correlationId: `c${n}`, joy: states[n]!.emotions.joy })),
    'each change delivered with the state right after it, in append order',
  );
  t.same(settled, ['c1', 'c2', 'c3'], 'and each append resolved once its change was committed');

  failing = true;
  const refused = [ledger.append(chat(4)), ledger.append(chat(5))];
  for (const append of refused) await t.rejects(append, /MDB_MAP_FULL/, 'a failed commit refuses every change of its group');
  t.equal(delivered.length, 3, 'none of them takes effect');
  failing = false;
  const pending = ledger.append(chat(6));
  // Before the turn's end: left to its scheduled commit, the change would reach a database already closed.
  await ledger.close();
  t.same(
    commits.at(-1)?.state,
    foldMoodChange(states[3]!, chat(6)),
    'what was appended before the close is committed by the close, folded from the last committed state',
  );
  await pending;
});

t.test('two exchanges of one visitor committed together are both on disk, in order', async (t) => {
  const file = join(testDir(t), 'emotions.json');
  const bounds = { maxSessions: 10, idleMs: 60_000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock: fixedClock(START) };
  const first = openEmbeddedStore(file, bounds);
  first.ledger.startFrom(defaultState(START));
  const times = { message: START, reply: START };
  await Promise.all([
    first.ledger.append(chat(1), { session: 'ada', message: 'first', reply: 'one', times }),
    first.ledger.append(chat(2), { session: 'ada', message: 'second', reply: 'two', times }),
  ]);
  const second = openEmbeddedStore(file, bounds);
  t.teardown(() => Promise.all([first.close(), second.close()]));
  t.same(
    (await second.conversations.history('ada')).map(({ content }) => content),
    ['first', 'one', 'second', 'two'],
  );
  t.same(second.ledger.held?.state, foldMoodChange(foldMoodChange(defaultState(START), chat(1)), chat(2)));
});

t.test('reopened, the sessions keep their order and their bounds; idle ones are removed from disk', async (t) => {
  const file = join(testDir(t), 'emotions.json');
  const clock = fixedClock(START);
  const first = openEmbeddedStore(file, { maxSessions: 3, idleMs: 60_000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock });
  for (const session of ['ada', 'bob', 'cy']) {
    await first.conversations.remember(session, `hello from ${session}`, 'hi');
    clock.advance(10_000);
  }
  await first.close();
  clock.advance(35_000); // ada is now idle for 65 s, bob for 55 s
  const second = openEmbeddedStore(file, { maxSessions: 2, idleMs: 60_000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock });
  t.teardown(() => second.close());
  t.equal(second.conversations.size, 2);
  t.same(await second.conversations.history('ada'), [], 'idle too long: forgotten');
  t.equal((await second.conversations.history('bob')).length, 2);
  await second.conversations.remember('dee', 'new', 'visitor');
  t.same(await second.conversations.history('cy'), [], 'cy, least recently used since the restart, makes room');
  await second.close();
  const third = openEmbeddedStore(file, { maxSessions: 10, idleMs: 60_000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock });
  t.teardown(() => third.close());
  t.equal(third.conversations.size, 2, 'what the bounds forgot is gone from disk');
});

t.test("a second process's store takes the exchanges the first wrote after it opened (the supervisor's hand-over)", async (t) => {
  const file = join(testDir(t), 'emotions.json');
  const bounds = { maxSessions: 100, idleMs: 60_000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock: systemClock };
  const draining = openEmbeddedStore(file, bounds);
  const successor = openEmbeddedStore(file, bounds);
  t.teardown(async () => {
    await successor.close();
    await draining.close();
  });
  await draining.conversations.remember('visitor', 'still streaming', 'Ended whole.', { message: 'a', reply: 'b' });
  t.same(await successor.conversations.messages('visitor'), [], 'written after the successor read the disk');
  successor.conversations.adoptDisk();
  t.match(await successor.conversations.messages('visitor'), [{ content: 'still streaming' }, { content: 'Ended whole.' }]);
});

t.test("a second process's store takes the mood the first committed after it opened (the supervisor's hand-over)", async (t) => {
  const file = join(testDir(t), 'emotions.json');
  const bounds = { maxSessions: 100, idleMs: 60_000, maxBytes: DEFAULT_MAX_SESSION_BYTES, clock: systemClock };
  const draining = openEmbeddedStore(file, bounds);
  draining.ledger.startFrom(defaultState(START));
  const successor = openEmbeddedStore(file, bounds);
  successor.ledger.startFrom(successor.ledger.held!.state);
  t.teardown(async () => {
    await successor.close();
    await draining.close();
  });
  const delivered: MoodChange[] = [];
  successor.ledger.subscribe((change) => delivered.push(change));
  t.equal(await successor.ledger.adoptDisk(), false, 'nothing to take while nobody else committed');
  await draining.ledger.append(chat(1));
  await draining.ledger.append(chat(2));
  const committed = foldMoodChange(foldMoodChange(defaultState(START), chat(1)), chat(2));
  t.equal(await successor.ledger.adoptDisk(), true);
  t.same(delivered, [{ kind: 'snapshot', state: committed, at: chat(2).at }], "the predecessor's last state, delivered whole");
  t.equal(await successor.ledger.adoptDisk(), false, 'taken once');
  const drift: MoodChange = { kind: 'drift', deltas: { joy: 0.01, sadness: 0, anger: 0, fear: 0, curiosity: 0 }, at: chat(3).at };
  await successor.ledger.append(drift);
  const reopened = openEmbeddedStore(file, bounds);
  t.teardown(() => reopened.close());
  t.same(reopened.ledger.held?.state, foldMoodChange(committed, drift), 'the next change folds from it');
});
