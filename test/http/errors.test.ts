import t from 'tap';
import { HttpError, httpError } from '../../src/http/errors.js';

t.test('the seed rows keep their exact bodies', (t) => {
  t.same(httpError('NO_MESSAGE').body, { error: 'No message provided' });
  t.same(httpError('AVATAR_FAILED').body, { error: 'Failed to get avatar information', avatar_shape: 'Circle', status: 'error' });
  t.match(httpError('NOT_INITIALIZED').body, { is_initialized: false, status: 'initializing' });
  t.match(httpError('MISSING_LLM_KEY').body, { status: 'missing_llm_key', is_initialized: false });
  t.end();
});

t.test('an error carries its code, status, an overriding message and its cause', (t) => {
  const cause = new Error('underneath');
  const error = httpError('MESSAGE_TOO_LONG', 'at most 3', cause);
  t.type(error, HttpError);
  t.match(error, { name: 'HttpError', code: 'MESSAGE_TOO_LONG', statusCode: 413, message: 'at most 3', cause });
  t.same(error.body, { error: 'at most 3' });
  t.equal(httpError('INTERNAL').cause, undefined);
  t.equal(new HttpError('BAD_REQUEST', 'too many slashes', { statusCode: 414 }).statusCode, 414);
  t.end();
});
