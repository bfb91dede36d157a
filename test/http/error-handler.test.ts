import t from 'tap';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { installErrorHandling, toHttpError } from '../../src/http/error-handler.js';
import { capturedLogger } from '../support/captured-logger.js';
import { httpError } from '../../src/http/errors.js';

function fastifyError(code: string, statusCode: number, message = code): Error {
  return Object.assign(new Error(message), { code, statusCode });
}

t.test('table errors pass through unchanged', (t) => {
  const error = httpError('NO_MESSAGE');
  t.equal(toHttpError(error), error);
  t.end();
});

t.test("fastify's own errors become rows of the table", (t) => {
  t.match(toHttpError(fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413)), { code: 'BODY_TOO_LARGE', statusCode: 413 });
  t.match(toHttpError(fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415)), { code: 'UNSUPPORTED_MEDIA_TYPE', statusCode: 415 });
  t.match(toHttpError(fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', 400, 'bad json')), {
    code: 'MALFORMED_JSON',
    statusCode: 400,
    body: { error: 'bad json' },
  });
  const validation = Object.assign(new Error('body/x must be string'), { validation: [{}], statusCode: 400 });
  t.match(toHttpError(validation), { code: 'BAD_REQUEST', statusCode: 400, body: { error: 'body/x must be string' } });
  t.end();
});

t.test('other client errors keep their status and message', (t) => {
  t.match(toHttpError(fastifyError('FST_ERR_SOMETHING', 414, 'URI too long')), {
    statusCode: 414,
    body: { error: 'URI too long' },
  });
  t.end();
});

t.test('anything else is a 500 that reveals nothing internal', (t) => {
  const mapped = toHttpError(new TypeError('cannot read x of undefined at /srv/secret/path.js'));
  t.match(mapped, { code: 'INTERNAL', statusCode: 500 });
  t.same(mapped.body, { error: 'Internal server error' });
  t.match(toHttpError(fastifyError('FST_ERR_X', 503)), { code: 'INTERNAL', statusCode: 500 });
  t.end();
});

t.test('a failing route logs one error line with one stack; a handler whose logging throws still answers 500', async (t) => {
  const captured = capturedLogger({ debug: false });
  const app = Fastify({ loggerInstance: captured.logger as FastifyBaseLogger });
  installErrorHandling(app);
  app.get('/fails', async () => {
    throw new Error('EMFILE: too many open files, open app.js');
  });
  app.get('/fails-worse', async (request) => {
    // A logger that throws: the error handler must not fail with it.
    request.log.error = () => {
      throw new Error('the log cannot be written');
    };
    throw new Error('first failure');
  });
  t.teardown(() => app.close());
  const failed = await app.inject('/fails');
  t.equal(failed.statusCode, 500);
  t.same(failed.json(), { error: 'Internal server error' });
  const errors = captured.lines().filter((line) => Number(line.level) >= 50);
  t.equal(errors.length, 1, 'one line');
  t.equal(captured.text().match(/at .*error-handler\.test/g)?.length, 1, 'one stack trace in it');
  const worse = await app.inject('/fails-worse');
  t.equal(worse.statusCode, 500);
  t.same(worse.json(), { error: 'Internal server error' });
});
