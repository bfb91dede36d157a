import t from 'tap';
import { isDebugEnabled } from '../../src/runtime/logger.js';
import { capturedLogger } from '../support/captured-logger.js';

t.test('DEBUG is on by default and off for 0 or false', (t) => {
  t.equal(isDebugEnabled({}), true);
  t.equal(isDebugEnabled({ DEBUG: '1' }), true);
  t.equal(isDebugEnabled({ DEBUG: '0' }), false);
  t.equal(isDebugEnabled({ DEBUG: ' FALSE ' }), false);
  t.end();
});

t.test('debug lines appear only in debug mode', (t) => {
  const on = capturedLogger({ debug: true });
  on.logger.debug('shown');
  const off = capturedLogger({ debug: false });
  off.logger.debug('hidden');
  t.equal(on.lines()[0]?.msg, 'shown');
  t.same(off.lines(), []);
  t.end();
});

t.test('keys, tokens and secrets are redacted wherever they sit', (t) => {
  const out = capturedLogger();
  out.logger.info(
    {
      apiKey: 'sk-live-123',
      provider: { apiKey: 'sk-live-456', baseURL: 'http://127.0.0.1:1' },
      token: 'hf_abc',
      req: { headers: { authorization: 'Bearer hf_abc', 'x-webhook-secret': 's3cret' } },
      webhookSecret: 's3cret',
    },
    'configured',
  );
  const text = out.text();
  for (const secret of ['sk-live-123', 'sk-live-456', 'hf_abc', 's3cret']) t.notMatch(text, secret);
  t.match(text, '127.0.0.1', 'other fields are kept');
  t.end();
});
