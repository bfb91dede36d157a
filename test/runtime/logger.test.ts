import { Writable } from 'node:stream';
import t from 'tap';
import { createLogger, isDebugEnabled } from '../../src/runtime/logger.js';

function capture(): { lines: () => Record<string, unknown>[]; stream: Writable } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

t.test('DEBUG is on by default and off for 0 or false', (t) => {
  t.equal(isDebugEnabled({}), true);
  t.equal(isDebugEnabled({ DEBUG: '1' }), true);
  t.equal(isDebugEnabled({ DEBUG: '0' }), false);
  t.equal(isDebugEnabled({ DEBUG: ' FALSE ' }), false);
  t.end();
});

t.test('debug lines appear only in debug mode', (t) => {
  const on = capture();
  createLogger({ debug: true, destination: on.stream }).debug('shown');
  const off = capture();
  createLogger({ debug: false, destination: off.stream }).debug('hidden');
  t.equal(on.lines()[0]?.msg, 'shown');
  t.same(off.lines(), []);
  t.end();
});

t.test('keys, tokens and secrets are redacted wherever they sit', (t) => {
  const out = capture();
  const logger = createLogger({ debug: true, destination: out.stream });
  logger.info(
    {
      apiKey: 'sk-live-123',
      provider: { apiKey: 'sk-live-456', baseURL: 'http://127.0.0.1:1' },
      token: 'hf_abc',
      req: { headers: { authorization: 'Bearer hf_abc', 'x-webhook-secret': 's3cret' } },
      webhookSecret: 's3cret',
    },
    'configured',
  );
  const text = JSON.stringify(out.lines());
  for (const secret of ['sk-live-123', 'sk-live-456', 'hf_abc', 's3cret']) t.notMatch(text, secret);
  t.match(text, '127.0.0.1', 'other fields are kept');
  t.end();
});
