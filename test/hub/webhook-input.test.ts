import t from 'tap';
import { WebhookInputError } from '../../src/hub/errors.js';
import type { WatchedItem } from '../../src/hub/types.js';
import { createWebhookBody, updateWebhookChanges } from '../../src/hub/webhook-input.js';

const watched: WatchedItem[] = [{ type: 'model', name: 'gpt2' }];

t.test('create body: watched first, optional keys only when given, jobId becomes jobSourceId', (t) => {
  t.same(createWebhookBody({ url: 'https://example.com/h', watched }), { watched, url: 'https://example.com/h' });
  t.same(createWebhookBody({ jobId: 'job-1', watched, domains: ['repo', 'repo', 'discussion'], secret: 's3cret' }), {
    watched,
    domains: ['repo', 'discussion'],
    secret: 's3cret',
    jobSourceId: 'job-1',
  });
  t.end();
});

t.test('every rule has its own clear message', (t) => {
  const bad: [Parameters<typeof createWebhookBody>[0], RegExp][] = [
    [{ url: 'https://x.y', watched: [] }, /Watch at least one item.*dataset, model, org, space, user/],
    [
      { url: 'https://x.y', watched: [{ type: 'repo' as WatchedItem['type'], name: 'x' }] },
      /Invalid watched type "repo". Valid types: dataset, model, org, space, user\./,
    ],
    [{ url: 'https://x.y', watched: [{ type: 'user', name: ' ' }] }, /A watched user needs a name/],
    [{ url: 'ftp://x.y', watched }, /must be an http\(s\) URL, got "ftp:\/\/x.y"/],
    [{ url: 'nope', watched }, /must be an http\(s\) URL/],
    [
      { url: 'https://x.y', watched, domains: ['discussions' as 'discussion'] },
      /Invalid domain "discussions". Valid domains: repo, discussion\./,
    ],
    [{ url: 'https://x.y', watched, secret: 'é' }, /printable ASCII/],
  ];
  for (const [input, message] of bad) {
    const error = (() => {
      try {
        createWebhookBody(input);
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    t.type(error, WebhookInputError);
    t.match((error as Error).message, message);
  }
  t.end();
});

t.test('update changes hold only what was given', (t) => {
  t.same(updateWebhookChanges({}), {});
  t.same(updateWebhookChanges({ url: 'https://example.com/n', domains: ['discussion'], secret: '', watched }), {
    watched,
    url: 'https://example.com/n',
    domains: ['discussion'],
    secret: '',
  });
  t.throws(() => updateWebhookChanges({ watched: [] }), WebhookInputError);
  t.end();
});
