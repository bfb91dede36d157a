import t from 'tap';
import { startFakeHub } from '../../testkit/fake-hub.js';

// The stand-in must behave like the hub for clients other than ours too (benchmarks, Python-style bodies).

t.test('routes, auth, errors and request ids', async (t) => {
  const hub = await startFakeHub({ token: 'hf_x' });
  t.teardown(() => hub.close());
  t.match(hub.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const call = async (method: string, path: string, body?: unknown, token = 'hf_x') => {
    const response = await fetch(`${hub.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return {
      status: response.status,
      requestId: response.headers.get('x-request-id'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };

  t.match(await call('GET', '/api/settings/webhooks', undefined, 'wrong'), {
    status: 401,
    requestId: /^fake-req-\d+$/,
    body: { error: /Invalid credentials/ },
  });
  const job = await call('POST', '/api/settings/webhooks', { watched: [{ type: 'org', name: 'acme' }], jobSourceId: 'job-1' });
  t.match(job, { status: 200, body: { webhook: { job: { sourceId: 'job-1' }, domains: ['repo', 'discussion'], disabled: false } } });
  t.notOk('url' in (job.body.webhook as object));
  const id = (job.body.webhook as { id: string }).id;

  const bad: [unknown, RegExp][] = [
    ['{nope', /Invalid JSON/],
    [[], /JSON object/],
    [{ watched: [], url: 'https://e.x' }, /non-empty array/],
    [{ watched: [{ type: 'repo', name: 'x' }], url: 'https://e.x' }, /Invalid watched type/],
    [{ watched: [{ type: 'user', name: '' }], url: 'https://e.x' }, /needs a name/],
    [{ watched: [{ type: 'user', name: 'a' }] }, /exactly one of/],
    [{ watched: [{ type: 'user', name: 'a' }], url: 'https://e.x', domains: ['everything'] }, /"domains" must be/],
    [{ watched: [{ type: 'user', name: 'a' }], url: 5 }, /"url" must be a string/],
  ];
  for (const [body, message] of bad) t.match(await call('POST', '/api/settings/webhooks', body), { status: 400, body: { error: message } });

  // The Python client sends `watched: []` on update when it means "unchanged".
  t.match(await call('POST', `/api/settings/webhooks/${id}`, { watched: [], domains: ['discussions'], secret: 's' }), {
    status: 200,
    body: { webhook: { watched: [{ type: 'org', name: 'acme' }], domains: ['discussions'], secret: 's' } },
  });
  t.match(await call('POST', `/api/settings/webhooks/${id}/disable`), { body: { webhook: { disabled: true } } });
  t.same((await call('GET', '/api/settings/webhooks')).body, [hub.webhooks.get(id)]);
  t.match(await call('GET', '/api/settings/webhooks/nope'), { status: 404, body: { error: 'Webhook not found' } });
  t.match(await call('POST', `/api/settings/webhooks/${id}/pause`), { status: 404 });
  t.match(await call('GET', `/api/settings/webhooks/${id}/enable/x`), { status: 404 });
  t.match(await call('GET', '/api/settings/webhooksX'), { status: 404 });
  t.match(await call('PUT', `/api/settings/webhooks/${id}`, {}), { status: 404, body: { error: /Cannot PUT/ } });
  t.match(await call('DELETE', `/api/settings/webhooks/${id}`), { status: 200 });
  t.equal(hub.webhooks.size, 0);
  t.match(await call('GET', '/api/settings/webhooks/%E0%A4%A'), { status: 500 });
  t.same(hub.requests[1], {
    method: 'POST',
    path: '/api/settings/webhooks',
    authorization: 'Bearer hf_x',
    body: { watched: [{ type: 'org', name: 'acme' }], jobSourceId: 'job-1' },
  });
});
