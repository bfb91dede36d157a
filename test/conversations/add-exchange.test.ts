import t from 'tap';
import { addExchange, lastExchange, untimed, type TimedTurn } from '../../src/conversations/conversation-store.js';
import { ANGRY_APPRAISAL } from '../support/moods.js';

const times = (message: string, reply: string) => ({ message, reply });
const base: readonly TimedTurn[] = addExchange([], { message: 'hi', reply: 'Hello!', times: times('t1', 't2') }, { turn: 'a' });

t.test('an exchange is added with its turn; a stopped reply is marked', async (t) => {
  t.same(base, [
    { role: 'user', content: 'hi', at: 't1', turn: 'a' },
    { role: 'assistant', content: 'Hello!', at: 't2', turn: 'a' },
  ]);
  const stopped = addExchange(base, { message: 'more', reply: 'Half', times: times('t3', 't4') }, { stopped: true });
  t.match(stopped[3], { content: 'Half', stopped: true });
});

t.test('a replace (regenerate): the same message, the earlier reply kept as an alternative', async (t) => {
  const regenerated = addExchange(base, { message: 'hi', reply: 'Hey there!', times: times('t1', 't5') }, { replace: true, turn: 'b' });
  t.equal(regenerated.length, 2);
  t.same(regenerated[0], { role: 'user', content: 'hi', at: 't1', turn: 'b' }, 'the message has no other version');
  t.same(regenerated[1], {
    role: 'assistant',
    content: 'Hey there!',
    at: 't5',
    turn: 'b',
    alternatives: [{ content: 'Hello!', at: 't2' }],
  });
  const again = addExchange(regenerated, { message: 'hi', reply: 'Third', times: times('t1', 't6') }, { replace: true });
  t.same(
    again[1]?.alternatives?.map((version) => version.content),
    ['Hello!', 'Hey there!'],
    'oldest first',
  );
});

t.test('a replace (edit): both sides keep their earlier versions; with no exchange, it is added', async (t) => {
  const edited = addExchange(base, { message: 'hello', reply: 'Hi again', times: times('t7', 't8') }, { replace: true });
  t.match(edited, [
    { content: 'hello', alternatives: [{ content: 'hi', at: 't1' }] },
    { content: 'Hi again', alternatives: [{ content: 'Hello!' }] },
  ]);
  t.equal(addExchange([], { message: 'x', reply: 'y' }, { replace: true }).length, 2);
});

t.test('the last exchange, and the prompt without an empty stopped reply', async (t) => {
  t.same(lastExchange(base), { message: 'hi', at: 't1' });
  t.equal(lastExchange([]), undefined);
  const emptyStop = addExchange(base, { message: 'wait', reply: '' }, { stopped: true });
  t.same(untimed(emptyStop), [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'Hello!' },
    { role: 'user', content: 'wait' },
  ]);
});

t.test("a message keeps how it read: on its own turn only, through a regenerate; an edit's is the new reading", async (t) => {
  const angry = ANGRY_APPRAISAL;
  const calm = { ...ANGRY_APPRAISAL, strongest: 'joy' as const, cues: ['thanks'] };
  const first = addExchange([], { message: 'I hate this', reply: 'Sorry.' }, { appraisal: angry });
  t.same(first[0]?.appraisal, angry, 'the message carries it');
  t.equal(first[1]?.appraisal, undefined, 'the reply does not');
  const regenerated = addExchange(first, { message: 'I hate this', reply: 'I hear you.' }, { replace: true });
  t.same(regenerated[0]?.appraisal, angry, 'a regenerate (not read again) keeps the first reading');
  const edited = addExchange(regenerated, { message: 'thanks anyway', reply: 'Any time.' }, { replace: true, appraisal: calm });
  t.same(edited[0]?.appraisal, calm, 'an edit is read anew');
  t.same(
    untimed(edited),
    [
      { role: 'user', content: 'thanks anyway' },
      { role: 'assistant', content: 'Any time.' },
    ],
    'the model never gets it',
  );
});
