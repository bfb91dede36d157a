import t from 'tap';
import type { FastifyError } from 'fastify';
import { toRefusal } from '../../src/webhooks/http-errors.js';

function fastifyError(code: string, statusCode?: number, message = 'boom'): FastifyError {
  return Object.assign(new Error(message), { code, statusCode }) as FastifyError;
}

t.test('other client errors keep their status and message; anything else is an opaque 500', (t) => {
  t.same(toRefusal(fastifyError('FST_ERR_SOMETHING', 405, 'Method not allowed'), 10), { statusCode: 405, error: 'Method not allowed' });
  t.same(toRefusal(fastifyError('FST_ERR_X', 503, 'db password=hunter2'), 10), { statusCode: 500, error: 'Internal server error.' });
  t.same(toRefusal(new Error('secret detail'), 10), { statusCode: 500, error: 'Internal server error.' });
  t.end();
});
