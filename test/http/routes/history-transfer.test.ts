import { readFileSync } from 'node:fs';
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { readyApp } from '../../support/harness.js';

// GET /api/history/export and POST /api/history/import on the real actor system: the versioned
// document as a download, the three formats in, append or replace, the mood never moved, a round
// trip that changes nothing, and a bad file answered 400 with nothing changed.
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/history-import/${name}`, import.meta.url), 'utf8');

/** One visitor's requests: the session cookie the first answer gives, sent back after. */
function visitor(app: FastifyInstance) {
  let cookie: string | undefined;
  return async (method: 'GET' | 'POST', url: string, payload?: string) => {
    const response = await app.inject({
      method,
      url,
      headers: { ...(cookie ? { cookie } : {}), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload }),
    });
    const set = response.headers['set-cookie'];
    if (set) cookie = String(Array.isArray(set) ? set[0] : set).split(';')[0];
    return response;
  };
}

t.test('export: the versioned document, as a download; importing it again changes nothing', async (t) => {
  const { app } = await readyApp(t);
  const as = visitor(app);
  for (const message of ['I finally finished my project!', 'What now?']) {
    t.equal((await as('POST', '/api/chat', JSON.stringify({ message }))).statusCode, 200);
  }
  const exported = await as('GET', '/api/history/export');
  t.equal(exported.statusCode, 200);
  t.match(exported.headers['content-type'], /^application\/json/);
  t.match(exported.headers['content-disposition'], /^attachment; filename="emotion-hub-conversation-2026-11-21\.json"$/);
  const document = exported.json();
  t.same(Object.keys(document), ['format', 'version', 'exported_at', 'messages']);
  t.equal(document.format, 'emotion-hub.history');
  t.equal(document.version, 1);
  t.equal(document.exported_at, '2026-11-21T10:00:00.000Z');
  t.same(
    document.messages.map((message: { role: string; content: string }) => [message.role, message.content]),
    [
      ['user', 'I finally finished my project!'],
      ['assistant', 'I hear you.'],
      ['user', 'What now?'],
      ['assistant', 'I hear you.'],
    ],
  );
  t.match(document.messages[0], { time: String, appraisal: { strongest: 'joy' } });

  const mood = (await app.inject('/api/avatar')).json().emotions;
  const again = await as('POST', '/api/history/import?replace=1', exported.body);
  t.equal(again.statusCode, 200, again.body);
  t.same(again.json(), { format: 'emotion-hub', exchanges: 2, skipped: 0, replaced: true, messages: 4 });
  t.same((await as('GET', '/api/history/export')).json().messages, document.messages, 'the round trip gives the same messages');
  t.same((await app.inject('/api/avatar')).json().emotions, mood, 'the mood did not move');
});

t.test('import: ChatGPT (one conversation, or ?index=) and Open WebUI appended; emotion-hub with its versions', async (t) => {
  const { app, events } = await readyApp(t);
  const as = visitor(app);
  const chatgpt = await as('POST', '/api/history/import', fixture('chatgpt-conversations.json'));
  t.equal(chatgpt.statusCode, 200, chatgpt.body);
  t.same(chatgpt.json(), { format: 'chatgpt', exchanges: 2, skipped: 0, replaced: false, messages: 4 });
  t.equal(
    (await as('POST', '/api/history/import?index=1', fixture('chatgpt-conversations.json'))).json().messages,
    6,
    'the second conversation appended',
  );
  const webui = await as('POST', '/api/history/import', fixture('open-webui-chat.json'));
  t.same(webui.json(), { format: 'open-webui', exchanges: 2, skipped: 0, replaced: false, messages: 10 });
  const history = (await as('GET', '/api/history')).json().messages;
  t.same(history.map((message: { content: string }) => message.content).slice(0, 2), [
    'Which vegetables grow well in shade?',
    'Leafy greens: lettuce, spinach and kale cope with shade.',
  ]);
  t.equal(history.at(-1).content, 'About a week, when it doubles within hours of a feed.');

  const own = await as('POST', '/api/history/import?replace=1', fixture('emotion-hub.json'));
  t.same(own.json(), { format: 'emotion-hub', exchanges: 3, skipped: 0, replaced: true, messages: 6 });
  const replaced = (await as('GET', '/api/history')).json().messages;
  t.same(
    replaced[3].alternatives.map((version: { content: string }) => version.content),
    ['Anything you like.', 'Maybe'],
    'the versions kept',
  );
  t.equal(replaced[5].stopped, true, 'a stopped reply stays stopped');
  t.notOk(
    events.some((event) => event.type === 'mood.changed' && event.change.kind === 'chat'),
    'no import made a change of the mood',
  );
  t.ok(
    events.some((event) => event.type === 'history.import.requested'),
    'the route asked the system over the bus',
  );
});

t.test('a bad file: 400 naming what is wrong, and nothing changes', async (t) => {
  const { app } = await readyApp(t);
  const as = visitor(app);
  t.equal((await as('POST', '/api/chat', JSON.stringify({ message: 'Keep me' }))).statusCode, 200);
  const before = (await as('GET', '/api/history')).json();
  const cases: [string, string, RegExp][] = [
    ['emotion-hub-malformed.json', '', /messages\[1\]\.time is not an ISO 8601 time/],
    ['chatgpt-malformed.json', '', /current_node "gone-node" is not in the mapping/],
    ['open-webui-malformed.json', '', /message 1's content is not a string/],
    ['chatgpt-conversations.json', '?index=5', /holds 2 conversations: no index 5/],
  ];
  for (const [name, query, error] of cases) {
    const response = await as('POST', `/api/history/import${query}${query ? '&' : '?'}replace=1`, fixture(name));
    t.equal(response.statusCode, 400, name);
    t.match(response.json().error, /^The file cannot be imported: /, name);
    t.match(response.json().error, error, name);
    t.match(response.json().error, /Nothing changed\.$/);
  }
  const unknown = await as('POST', '/api/history/import', JSON.stringify({ hello: 'world' }));
  t.equal(unknown.statusCode, 400);
  t.match(unknown.json().error, /none of the formats this service imports/);
  t.equal((await as('POST', '/api/history/import', '{"format": ')).statusCode, 400, 'malformed JSON');
  t.same((await as('GET', '/api/history')).json(), before, 'the conversation is as it was');
});

t.test('bounded as the conversation is: a file over MAX_SESSION_BYTES is refused, a message over MAX_MESSAGE_LENGTH named', async (t) => {
  const { app } = await readyApp(t, { MAX_SESSION_BYTES: '2048', MAX_MESSAGE_LENGTH: '20' });
  const as = visitor(app);
  const big = JSON.stringify({
    format: 'emotion-hub.history',
    version: 1,
    messages: [{ role: 'user', content: 'x'.repeat(3000), time: '2026-11-20T09:00:00.000Z' }],
  });
  t.equal((await as('POST', '/api/history/import', big)).statusCode, 413);
  const long = await as(
    'POST',
    '/api/history/import',
    JSON.stringify({
      format: 'emotion-hub.history',
      version: 1,
      messages: [
        { role: 'user', content: 'a message of thirty characters', time: '2026-11-20T09:00:00.000Z' },
        { role: 'assistant', content: 'A reply may be longer than a message.', time: '2026-11-20T09:00:01.000Z' },
      ],
    }),
  );
  t.equal(long.statusCode, 400);
  t.match(long.json().error, /message 1 is 30 characters long: at most 20/);
});
