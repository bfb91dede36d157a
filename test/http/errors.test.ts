import t from 'tap';
import { HttpError, httpError } from '../../src/http/errors.js';

t.test('the rows of docs/specification.md#chat keep their exact bodies', (t) => {
  t.same(httpError('NO_MESSAGE').body, { error: 'No message provided' });
  t.same(httpError('AVATAR_FAILED').body, { error: 'Failed to get avatar information', avatar_shape: 'Circle', status: 'error' });
  t.match(httpError('NOT_INITIALIZED').body, { is_initialized: false, status: 'initializing' });
  t.match(httpError('MISSING_LLM_KEY').body, { status: 'missing_llm_key', is_initialized: false });
  t.end();
});

t.test('an error carries its code, status, its message filled in and its cause', (t) => {
  const cause = new Error('underneath');
  const error = httpError('MESSAGE_TOO_LONG', { args: [3], cause });
  t.type(error, HttpError);
  const message = 'Message too long: at most 3 characters';
  t.match(error, { name: 'HttpError', code: 'MESSAGE_TOO_LONG', statusCode: 413, message, cause });
  t.same(error.body, { error: message });
  t.equal(httpError('INTERNAL').cause, undefined);
  const passed = httpError('BAD_REQUEST', { args: ['too many slashes'], statusCode: 414 });
  t.match(passed, { statusCode: 414, message: 'too many slashes' }, "fastify's own 4xx keeps its status and words");
  t.end();
});
