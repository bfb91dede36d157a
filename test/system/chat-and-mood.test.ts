import t from 'tap';
import { DEFAULT_EMOTIONS, processMessage } from '../../src/emotions/model.js';
import { appraise } from '../../src/appraisal/appraisal.js';
import { loadShippedModel } from '../../src/appraisal/shipped-model.js';
import { systemPrompt } from '../../src/providers/reply-writer.js';
import { neutralReader } from '../support/appraisal-models.js';
import { completion } from '../../testkit/provider-wire.js';
import { correlationOf, ofType } from '../support/bus-events.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';
import { chat, ready, status } from '../support/system-steps.js';

mockProviderHttp(t);

t.test('ready: a chat message decays and moves the emotions, and the reply carries them', async (t) => {
  const bodies: { messages: { role: string; content: string }[] }[] = [];
  mockedProvider()
    .completions((body) => bodies.push(body) > 0)
    .reply(200, completion('  What a lovely thing to say!  '))
    .post('/v1/chat/completions', (body) => bodies.push(body) > 0)
    .reply(200, completion('Tell me more.'));
  const { bus, events } = await ready(t);
  const message = 'I love this wonderful day';
  const reply = await chat(bus, message);
  const expected = processMessage(DEFAULT_EMOTIONS, appraise(await loadShippedModel(), message));
  t.match(reply, { type: 'chat.replied', response: 'What a lovely thing to say!', emotions: expected });
  t.same((reply as { emotions: object }).emotions, expected, 'unrounded');
  t.match(await status(bus), { phase: 'ready', emotions: expected, sentiment: { sentiment: 'positive' } });
  t.match(bodies[0]?.messages, [
    { role: 'system', content: /joy 0\.\d\d, sadness 0\.\d\d, anger 0\.\d\d, fear 0\.\d\d, curiosity 0\.\d\d/ },
    { role: 'user', content: message },
  ]);
  t.equal(
    bodies[0]?.messages[0]?.content,
    systemPrompt(expected),
    'the prompt carries the emotions as the message makes them, before the commit',
  );
  await chat(bus, 'and then?');
  t.match(
    bodies[1]?.messages.slice(1),
    [
      { role: 'user', content: message },
      { role: 'assistant', content: 'What a lovely thing to say!' },
      { role: 'user', content: 'and then?' },
    ],
    'the conversation memory carries the last exchange',
  );
  t.match(ofType(events, 'sentiment.analyzed'), [{ sentiment: { sentiment: 'positive' } }, { sentiment: { sentiment: 'neutral' } }]);
});

t.test("the seed's decay, wired: a message read as neutral leaves 0.97 of every emotion, unrounded inside", async (t) => {
  mockedProvider().completions().reply(200, completion('Brown it is.'));
  const { bus } = await ready(t, {}, undefined, { appraisalModel: neutralReader() });
  const reply = await chat(bus, 'the table is brown');
  // 0.5·0.97, 0.2·0.97, 0.1·0.97 twice, 0.5·0.97: literals, not the model's functions.
  t.same((reply as { emotions: object }).emotions, { joy: 0.485, sadness: 0.194, anger: 0.097, fear: 0.097, curiosity: 0.485 });
  t.match(await status(bus), { emotions: { joy: 0.485, sadness: 0.194, anger: 0.097, fear: 0.097, curiosity: 0.485 } });
});

t.test('concurrent chats each get the emotions their own message produced', async (t) => {
  mockedProvider().completions().times(2).delay(20).reply(200, completion('ok'));
  const { bus, events } = await ready(t);
  const [happy, sad] = await Promise.all([chat(bus, 'I love it, wonderful'), chat(bus, 'I hate it, awful')]);
  const changes = ofType(events, 'mood.changed');
  t.same((happy as { emotions: object }).emotions, changes[0]?.emotions);
  t.same((sad as { emotions: object }).emotions, changes[1]?.emotions);
  t.not(correlationOf(changes[0]), correlationOf(changes[1]));
});
