import t from 'tap';
import { isDebugEnabled, prettyLines } from '../../src/runtime/logger.js';
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

t.test("a supervised child's JSON line is shown on a terminal as the supervisor's own: no JSON, the words and the level", async (t) => {
  const pretty = await prettyLines();
  // The terminal's colour codes taken out, to read the words.
  const line = pretty(JSON.stringify({ level: 40, time: Date.UTC(2026, 10, 28), pid: 7, msg: 'the service failed', delayMs: 1000 }))
    .split(String.fromCharCode(27))
    .map((part, index) => (index === 0 ? part : part.replace(/^\[\d+m/, '')))
    .join('');
  t.notMatch(line, /^\{/, 'not JSON');
  t.match(line, /WARN/);
  t.match(line, /the service failed/);
  t.match(line, /"delayMs":1000/);
  t.notMatch(line, /\n/, 'one line, fields included: the pass-through adds the end');
  t.equal(pretty('not json at all'), 'not json at all', 'anything else as it is');
});
