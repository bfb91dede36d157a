import { PassThrough } from 'node:stream';
import t from 'tap';
import { createLogger } from '../../src/runtime/logger.js';
import { harness } from '../support/http-harness.js';

function capture() {
  const sink = new PassThrough();
  let written = '';
  sink.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const lines = () =>
    written
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { sink, lines };
}

t.test('with debug on, every request line carries its reqId', async (t) => {
  const { app, logs } = await harness(t);
  await app.inject('/health');
  const lines = logs().filter((line) => line.msg === 'incoming request' || line.msg === 'request completed');
  t.equal(lines.length, 2);
  t.ok(lines.every((line) => typeof line.reqId === 'string' && line.reqId === lines[0]?.reqId));
});

t.test('with debug off, no request lines, and a 500 still names its request', async (t) => {
  const { sink, lines } = capture();
  const { app, system } = await harness(t, { logger: createLogger({ debug: false, destination: sink }) });
  await app.inject('/health');
  t.same(lines(), [], 'a healthy request writes nothing');
  system.answersStatus = false;
  const failed = await app.inject('/api/avatar');
  t.equal(failed.statusCode, 500);
  t.match(lines(), [{ level: 50, reqId: /^req-/ }], 'one error line, with the reqId');
});
