import t from 'tap';
import { DEFAULT_REQUEST_TIMEOUT_MS, resolveOptions } from '../../src/webhooks/options.js';

t.test('defaults: 127.0.0.1:7860, 1 MiB, 10 s to arrive, no secret', (t) => {
  t.same(resolveOptions({ env: {} }), {
    secret: undefined,
    port: 7860,
    host: '127.0.0.1',
    bodyLimit: 1024 * 1024,
    requestTimeout: 10_000,
    headersTimeout: 10_000,
    spaceHost: undefined,
  });
  t.equal(DEFAULT_REQUEST_TIMEOUT_MS, 10_000);
  t.end();
});

t.test('options win over the environment, which wins over the defaults', (t) => {
  const env = { WEBHOOK_SECRET: 'env-secret', PORT: '8080', HOST: '0.0.0.0', SPACE_HOST: 'me-hooks.hf.space' };
  t.same(resolveOptions({ env }), {
    secret: 'env-secret',
    port: 8080,
    host: '0.0.0.0',
    bodyLimit: 1024 * 1024,
    requestTimeout: 10_000,
    headersTimeout: 10_000,
    spaceHost: 'me-hooks.hf.space',
  });
  t.match(resolveOptions({ env, webhookSecret: 'mine', port: 0, host: '::1', bodyLimit: 10 }), {
    secret: 'mine',
    port: 0,
    host: '::1',
    bodyLimit: 10,
  });
  t.match(resolveOptions({ env: { SPACE_ID: 'me/hooks' } }), { host: '0.0.0.0' }, 'on a Space without HOST: every interface');
  t.match(resolveOptions({ env: { SPACE_HOST: 'me-hooks.hf.space' } }), { host: '0.0.0.0', spaceHost: 'me-hooks.hf.space' });
  t.match(resolveOptions({ env: { SPACE_ID: 'me/hooks', HOST: '127.0.0.1' } }), { host: '127.0.0.1' });
  t.match(resolveOptions({ env: { SPACE_ID: 'me/hooks' }, host: '::1' }), { host: '::1' }, 'the option wins');
  t.equal(resolveOptions({ env: { WEBHOOK_SECRET: '' }, webhookSecret: '' }).secret, undefined, 'an empty secret is no secret');
  t.equal(resolveOptions({ env: { PORT: ' ' } }).port, 7860, 'a blank PORT is unset');
  t.end();
});

t.test('a bad port or body limit is a clear error', (t) => {
  t.throws(() => resolveOptions({ env: { PORT: 'eighty' } }), {
    name: 'RangeError',
    message: 'Invalid port "eighty": use an integer from 0 to 65535 (0 picks a free port).',
  });
  t.throws(() => resolveOptions({ env: {}, port: 70000 }), { message: /Invalid port 70000/ });
  t.throws(() => resolveOptions({ env: {}, port: 1.5 }), { message: /Invalid port 1.5/ });
  t.throws(() => resolveOptions({ env: {}, bodyLimit: 0 }), { message: 'Invalid bodyLimit 0: use a positive number of bytes.' });
  t.throws(() => resolveOptions({ env: {}, requestTimeout: -1 }), {
    message: 'Invalid requestTimeout -1: use a positive number of milliseconds.',
  });
  t.match(
    resolveOptions({ env: {}, requestTimeout: 500, headersTimeout: 2000 }),
    { requestTimeout: 500, headersTimeout: 500 },
    'headers never get longer than the request',
  );
  t.end();
});
