import t from 'tap';
import type { ConversationStore } from '../../src/conversations/conversation-store.js';
import { DEFAULT_EMOTIONS } from '../../src/emotions/model.js';
import { START } from '../support/harness.js';
import { completion } from '../../testkit/provider-wire.js';
import { correlationOf, ofType } from '../support/bus-events.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';
import { chat, ready, status, withLedger } from '../support/system-steps.js';

mockProviderHttp(t);

t.test('a chat whose change the ledger refuses is rejected as unavailable and changes nothing', async (t) => {
  mockedProvider().completions().reply(200, completion('Lovely.'));
  const local = new (await import('../../src/mood-ledger/local-mood-ledger.js')).LocalMoodLedger();
  const refusing = withLedger(local, {
    append: async () => {
      throw new Error('the stream is gone');
    },
  });
  const { bus, events, exits } = await ready(t, {}, undefined, { ledger: refusing });
  t.match(await chat(bus, 'I love this'), {
    type: 'chat.rejected',
    reason: 'unavailable',
    error: /could not be recorded \(the stream is gone\)/,
  });
  t.same(ofType(events, 'mood.changed'), []);
  t.match(await status(bus), { emotions: DEFAULT_EMOTIONS, lastUpdated: START });
  t.same(exits, [], 'a ledger refusal is not a model failure');
});

t.test('a conversation gains an exchange only when the chat commits', async (t) => {
  // The model replied to the first message but the ledger refused its change: the visitor was told
  // nothing changed, so the next prompt must not carry that exchange as if it had happened.
  const prompts: { role: string; content: string }[][] = [];
  mockedProvider()
    .completions()
    .times(2)
    .reply(200, (_uri, body) => {
      prompts.push((body as { messages: { role: string; content: string }[] }).messages);
      return completion(`Reply ${prompts.length}.`);
    });
  const local = new (await import('../../src/mood-ledger/local-mood-ledger.js')).LocalMoodLedger();
  let refusals = 1;
  const refusingOnce = withLedger(local, {
    append: async (change: import('../../src/mood-ledger/mood-ledger.js').MoodChange) => {
      if (refusals-- > 0) throw new Error('the stream is gone');
      return local.append(change);
    },
  });
  const { bus } = await ready(t, {}, undefined, { ledger: refusingOnce });
  t.match(await chat(bus, 'the refused message'), { type: 'chat.rejected', reason: 'unavailable' });
  t.match(await chat(bus, 'the second message'), { type: 'chat.replied', response: 'Reply 2.' });
  t.equal(prompts.length, 2, 'both messages reached the model');
  t.same(
    prompts[1]!.filter((turn) => turn.role !== 'system'),
    [{ role: 'user', content: 'the second message' }],
    'the refused exchange is not in the next prompt',
  );
  t.notMatch(JSON.stringify(prompts[1]), /the refused message|Reply 1\./);
});

t.test('a chat whose conversation cannot be read is rejected as unavailable, before any model call, and changes nothing', async (t) => {
  // No completion mock: a model call would fail the chat as a model failure and exit.
  const away: ConversationStore = {
    history: async () => {
      throw new Error('Redis is unavailable: cannot read the conversation');
    },
    messages: async () => {
      throw new Error('Redis is unavailable: cannot read the conversation');
    },
    remember: async () => undefined,
    forget: async () => undefined,
    close: async () => undefined,
  };
  const { bus, events, exits } = await ready(t, {}, undefined, { conversations: away });
  t.match(await chat(bus, 'I love this'), {
    type: 'chat.rejected',
    reason: 'unavailable',
    error: 'The conversation could not be read (Redis is unavailable: cannot read the conversation); nothing changed. Please try again.',
  });
  t.same(ofType(events, 'dialogue.failed'), [], 'not a model failure');
  t.same(ofType(events, 'mood.changed'), []);
  t.same(exits, [], 'the service goes on');
});

t.test('with a ledger that delivers later, a chat answers only once its own change is back, with the state after it', async (t) => {
  const { LocalMoodLedger } = await import('../../src/mood-ledger/local-mood-ledger.js');
  const queued: import('../../src/mood-ledger/mood-ledger.js').MoodChange[] = [];
  const local = new LocalMoodLedger();
  const deferred = withLedger(local, {
    append: async (change: import('../../src/mood-ledger/mood-ledger.js').MoodChange) => void queued.push(change),
    deliver: () => queued.splice(0).forEach((change) => void local.append(change)),
  });
  mockedProvider().completions().times(2).reply(200, completion('ok'));
  const { bus, events } = await ready(t, {}, undefined, { ledger: deferred });
  let answered = false;
  const first = chat(bus, 'I love it').then((reply) => ((answered = true), reply));
  const second = chat(bus, 'I hate it').then((reply) => reply);
  for (let i = 0; i < 100 && queued.length < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  t.equal(queued.length, 2, 'both replies are in, their changes appended');
  t.notOk(answered, 'no answer before the ledger delivers');
  t.same(ofType(events, 'mood.changed'), []);
  // Another replica's drift lands first: each chat applies to the state current when it is delivered.
  queued.unshift({ kind: 'drift', deltas: { joy: 0.1, sadness: 0, anger: 0, fear: 0, curiosity: 0 }, at: START });
  deferred.deliver();
  const [happy, sad] = await Promise.all([first, second]);
  const changes = ofType(events, 'mood.changed');
  t.same(
    changes.map((e) => e.change.kind),
    ['drift', 'chat', 'chat'],
  );
  const byId = new Map(changes.map((e) => [correlationOf(e), e.emotions]));
  t.same((happy as { emotions: object }).emotions, byId.get((happy as { correlationId: string }).correlationId));
  t.same((sad as { emotions: object }).emotions, byId.get((sad as { correlationId: string }).correlationId));
  t.same((sad as { emotions: object }).emotions, changes[2]?.emotions);
});
