import t from 'tap';
import { createWebhook } from '../../src/hub/create-webhook.js';
import { deleteWebhook } from '../../src/hub/delete-webhook.js';
import { disableWebhook } from '../../src/hub/disable-webhook.js';
import { enableWebhook } from '../../src/hub/enable-webhook.js';
import { HubConfigError } from '../../src/hub/errors.js';
import { getWebhook } from '../../src/hub/get-webhook.js';
import type { HubFetch } from '../../src/hub/hub-options.js';
import { listWebhooks } from '../../src/hub/list-webhooks.js';
import { updateWebhook } from '../../src/hub/update-webhook.js';
import { TOKEN, urlWebhookJson, useNock } from '../support/hub-fixtures.js';

// nock refuses every connection here: a call that went out anyway (to huggingface.co, with the
// token) would fail with a connection error, not the HubConfigError these tests expect.
useNock(t);

/** A fetch that counts what it is asked to send and answers like the hub. */
function countingFetch() {
  const sent: string[] = [];
  const fetch: HubFetch = async (url, init) => {
    sent.push(url);
    const list = init.method === 'GET' && url.endsWith('/webhooks');
    return new Response(JSON.stringify(list ? [urlWebhookJson] : { webhook: urlWebhookJson }));
  };
  return { sent, fetch };
}

/** Every call of the library, each given the same extra params beside what it needs. */
const CALLS: Record<string, (extra: Record<string, unknown>) => Promise<unknown>> = {
  createWebhook: (extra) => createWebhook({ url: 'https://example.com/hook', watched: [{ type: 'model', name: 'gpt2' }], ...extra }),
  listWebhooks: (extra) => listWebhooks(extra),
  getWebhook: (extra) => getWebhook({ webhookId: 'abc', ...extra }),
  updateWebhook: (extra) => updateWebhook({ webhookId: 'abc', url: 'https://example.com/new', ...extra }),
  enableWebhook: (extra) => enableWebhook('abc', extra),
  disableWebhook: (extra) => disableWebhook('abc', extra),
  deleteWebhook: (extra) => deleteWebhook({ webhookId: 'abc', ...extra }),
};

t.test("`endpoint` (the CLI's HF_ENDPOINT by its name) is refused by every call, naming `hubUrl`, and nothing is sent", async (t) => {
  for (const [name, call] of Object.entries(CALLS)) {
    const { sent, fetch } = countingFetch();
    const error = await call({ accessToken: TOKEN, fetch, endpoint: 'http://127.0.0.1:9' }).catch((caught: unknown) => caught);
    t.type(error, HubConfigError, name);
    t.equal(
      (error as Error).message,
      `${name} has no option \`endpoint\`: the hub's base URL is \`hubUrl\`. Nothing was sent.`,
      `${name}: the message names the right option`,
    );
    t.notMatch((error as Error).message, TOKEN, `${name}: the token is not in the message`);
    t.same(sent, [], `${name}: no request`);
  }
});

t.test('the same calls with `hubUrl` go to that hub: the check refuses only what it does not know', async (t) => {
  for (const [name, call] of Object.entries(CALLS)) {
    const { sent, fetch } = countingFetch();
    await call({ accessToken: TOKEN, fetch, hubUrl: 'http://127.0.0.1:9' });
    t.ok(sent.length > 0, `${name}: sent`);
    t.ok(
      sent.every((url) => url.startsWith('http://127.0.0.1:9/api/')),
      `${name}: to the given hub only`,
    );
  }
});

t.test("other clients' and spellings' names for the hub URL and the token are answered with this library's", async (t) => {
  const { sent, fetch } = countingFetch();
  for (const [given, meant] of [
    ['HF_ENDPOINT', 'hubUrl'],
    ['hfEndpoint', 'hubUrl'],
    ['baseUrl', 'hubUrl'],
    ['base_url', 'hubUrl'],
    ['hubURL', 'hubUrl'],
    ['credentials', 'accessToken'],
    ['access_token', 'accessToken'],
    ['HF_TOKEN', 'accessToken'],
    ['Fetch', 'fetch'],
  ] as const) {
    await t.rejects(
      listWebhooks({ accessToken: TOKEN, fetch, [given]: 'x' }),
      { name: 'HubConfigError', message: new RegExp(`^listWebhooks has no option \`${given}\`: .*\`${meant}\`[.?] Nothing was sent\\.$`) },
      given,
    );
  }
  t.same(sent, []);
});

t.test('an option no call knows is answered with the whole list of what this call takes', async (t) => {
  const { sent, fetch } = countingFetch();
  await t.rejects(CALLS.createWebhook!({ accessToken: TOKEN, fetch, colour: 'blue' }), {
    name: 'HubConfigError',
    message:
      'createWebhook has no option `colour`; it takes `url`, `jobId`, `watched`, `domains`, `secret`, `accessToken`, `token`, `hubUrl`, `fetch`, `signal`. Nothing was sent.',
  });
  t.same(sent, []);
});

t.test("each call knows its own fields: create's jobId is no update's option, a webhook id no list's", async (t) => {
  const { sent, fetch } = countingFetch();
  await t.rejects(updateWebhook('abc', { accessToken: TOKEN, fetch, jobId: 'job-1' } as never), {
    name: 'HubConfigError',
    message:
      'updateWebhook has no option `jobId`; it takes `webhookId`, `url`, `watched`, `domains`, `secret`, `accessToken`, `token`, `hubUrl`, `fetch`, `signal`. Nothing was sent.',
  });
  await t.rejects(listWebhooks({ accessToken: TOKEN, fetch, webhookId: 'abc' } as never), {
    message: /^listWebhooks has no option `webhookId`; it takes `accessToken`, `token`, `hubUrl`, `fetch`, `signal`\./,
  });
  await t.rejects(CALLS.createWebhook!({ accessToken: TOKEN, fetch, jobid: 'job-1', url: undefined }), {
    message: 'createWebhook has no option `jobid`: did you mean `jobId`? Nothing was sent.',
  });
  t.same(sent, []);
});
