import { readFileSync } from 'node:fs';
import t from 'tap';
import { readImport } from '../../src/history-files/read-import.js';
import { ImportFileError } from '../../src/history-files/imported-message.js';
import { importPlan } from '../../src/conversations/imported-exchanges.js';
import { addExchange, type TimedTurn } from '../../src/conversations/conversation-store.js';

// The three formats an import reads, from fixtures written after each format's public description
// (emotion-hub's own in docs/chat-api.md, ChatGPT's conversations.json, Open WebUI's chat export),
// a malformed file of each, and how the messages become the exchanges a store keeps.
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../fixtures/history-import/${name}`, import.meta.url), 'utf8'));
const NOW = '2026-11-27T12:00:00.000Z';
const read = (document: unknown, index?: number) => readImport(document, { index, now: NOW, bounds: { maxMessageLength: 4000 } });
const said = (messages: readonly TimedTurn[]) => messages.map(({ role, content, at }) => [role, content, at]);

t.test('ChatGPT: the shown branch of the first conversation (or ?index), text only, times from create_time', (t) => {
  const first = read(fixture('chatgpt-conversations.json'));
  t.equal(first.format, 'chatgpt');
  t.same(
    said(first.messages),
    [
      ['user', 'Which vegetables grow well in shade?', '2025-11-20T09:00:00.500Z'],
      ['assistant', 'Leafy greens: lettuce, spinach and kale cope with shade.', '2025-11-20T09:00:10.000Z'],
      ['user', 'And herbs?', '2025-11-20T09:01:40.000Z'],
      ['assistant', 'Mint and parsley do well.', '2025-11-20T09:01:45.000Z'],
    ],
    'the system and tool messages, the image part and the other branch stay behind',
  );
  t.same(said(read(fixture('chatgpt-conversations.json'), 1).messages), [
    ['user', 'Hello from the second one', '2025-11-21T09:00:00.000Z'],
    ['assistant', 'Hi, second.', '2025-11-21T09:00:05.000Z'],
  ]);
  t.throws(
    () => read(fixture('chatgpt-conversations.json'), 2),
    new ImportFileError('conversations.json holds 2 conversations: no index 2'),
  );
  t.throws(() => read(fixture('chatgpt-malformed.json')), new ImportFileError('current_node "gone-node" is not in the mapping'));
  t.end();
});

t.test('Open WebUI: the current branch of its history, the regenerated answer left behind', (t) => {
  const chat = read(fixture('open-webui-chat.json'));
  t.equal(chat.format, 'open-webui');
  t.same(said(chat.messages), [
    ['user', 'How do I start with sourdough?', '2025-11-22T09:00:00.000Z'],
    ['assistant', 'Start with a **starter**: flour and water, fed daily.', '2025-11-22T09:00:04.000Z'],
    ['user', 'How long until it is ready?', '2025-11-22T09:01:40.000Z'],
    ['assistant', 'About a week, when it doubles within hours of a feed.', '2025-11-22T09:01:50.000Z'],
  ]);
  const document = fixture('open-webui-chat.json') as { chat: { history?: unknown } }[];
  delete document[0]!.chat.history;
  t.same(said(read(document).messages), said(chat.messages), 'without a history, its messages');
  t.throws(() => read(fixture('open-webui-malformed.json')), new ImportFileError("message 1's content is not a string"));
  t.end();
});

t.test('emotion-hub: every field back, checked; a later version or a wrong field is named', (t) => {
  const own = read(fixture('emotion-hub.json'));
  t.equal(own.format, 'emotion-hub');
  t.equal(own.messages.length, 6);
  t.same(own.messages[0]?.appraisal?.cues, ['finally', 'finished']);
  t.same(own.messages[3]?.alternatives?.[1], { content: 'Maybe', at: '2026-11-20T09:00:58.000Z', stopped: true });
  t.equal(own.messages[5]?.stopped, true);
  t.throws(() => read(fixture('emotion-hub-malformed.json')), new ImportFileError('messages[1].time is not an ISO 8601 time'));
  const later = { ...(fixture('emotion-hub.json') as object), version: 2 };
  t.throws(() => read(later), new ImportFileError('version 2 is not one this service reads (1)'));
  const badAppraisal = fixture('emotion-hub.json') as { messages: { appraisal?: { strongest: string } }[] };
  badAppraisal.messages[0]!.appraisal!.strongest = 'boredom';
  t.throws(() => read(badAppraisal), /^messages\[0\]\.appraisal\/strongest /);
  t.end();
});

t.test('anything else, an empty conversation, a message over the limit: named', (t) => {
  for (const document of [null, 42, 'text', [], {}, { messages: [] }]) {
    t.throws(() => read(document), /none of the formats this service imports/, JSON.stringify(document));
  }
  t.throws(
    () => read({ format: 'emotion-hub.history', version: 1, messages: [] }),
    new ImportFileError('the conversation has no message to import'),
  );
  const long = { format: 'emotion-hub.history', version: 1, messages: [{ role: 'user', content: 'é'.repeat(11), time: NOW }] };
  t.throws(
    () => readImport(long, { now: NOW, bounds: { maxMessageLength: 10 } }),
    new ImportFileError('message 1 is 11 characters long: at most 10'),
  );
  t.end();
});

t.test('the exchanges: versions replayed so a store keeps them as they were; lone messages skipped', (t) => {
  const { messages } = read(fixture('emotion-hub.json'));
  const plan = importPlan(messages);
  t.equal(plan.exchanges, 3);
  t.equal(plan.skipped, 0);
  let turns: readonly TimedTurn[] = [];
  for (const step of plan.steps) turns = addExchange(turns, { message: step.message, reply: step.reply, times: step.times }, step.marks);
  t.same(turns, messages, 'remembered step by step, the conversation is the file’s, versions and marks included');

  const loose: TimedTurn[] = [
    { role: 'assistant', content: 'A greeting first', at: NOW },
    { role: 'user', content: 'One', at: NOW },
    { role: 'user', content: 'Two', at: NOW },
    { role: 'assistant', content: 'Both heard', at: NOW },
    { role: 'user', content: 'No reply yet', at: NOW },
  ];
  const lone = importPlan(loose);
  t.same(
    lone.steps.map(({ message, reply }) => [message, reply]),
    [['One\n\nTwo', 'Both heard']],
    'two messages in a row are one',
  );
  t.equal(lone.skipped, 2, 'the greeting before any message and the message without a reply');
  t.end();
});
