import t from 'tap';
import { WebhookPayloadError } from '../../src/webhooks/errors.js';
import { parseWebhookPayload, validateWebhookPayload } from '../../src/webhooks/validate-payload.js';
import { describeSchemaErrors } from '../../src/webhooks/validation-message.js';
import { fixture, fixtureText } from './helpers.js';

t.test('every fixture is a valid payload, returned as is', (t) => {
  for (const name of ['repo-content-update', 'discussion-created', 'comment-created', 'repo-config-update'] as const) {
    const payload = fixture(name);
    t.equal(validateWebhookPayload(payload), payload, name);
    t.same(parseWebhookPayload(fixtureText(name)), payload, name);
  }
  t.end();
});

t.test('what the Hub documents as optional may be absent or null', (t) => {
  const payload = fixture('discussion-created');
  delete payload.comment!.content;
  payload.comment!.hidden = true;
  delete payload.discussion!.changes;
  const refs = fixture('repo-content-update');
  refs.updatedRefs = [{ ref: 'refs/heads/old', oldSha: 'a'.repeat(40), newSha: null }, { ref: 'refs/tags/v1' }];
  t.doesNotThrow(() => validateWebhookPayload(payload));
  t.doesNotThrow(() => validateWebhookPayload(refs));
  t.end();
});

t.test('a wrong payload is a 422 that names each problem', (t) => {
  const payload = fixture('comment-created') as unknown as Record<string, Record<string, unknown>>;
  payload.event!.action = 'push';
  payload.discussion!.num = 1.5;
  payload.comment!.author = { name: 'x' };
  payload.repo!.tags = ['ok', 3];
  (payload as Record<string, unknown>).updatedRefs = [{ ref: 'refs/heads/main', newSha: 7 }];
  try {
    validateWebhookPayload(payload);
    t.fail('should throw');
  } catch (error) {
    t.type(error, WebhookPayloadError);
    t.equal((error as WebhookPayloadError).statusCode, 422);
    t.equal(
      (error as Error).message,
      'Invalid webhook payload: payload.event.action must be one of "create", "delete", "move", "update"; ' +
        'payload.repo.tags[1] must be string; payload.discussion.num must be integer; payload.comment.author.id is required; ' +
        'payload.updatedRefs[0].newSha must be string or null.',
    );
  }
  t.throws(() => validateWebhookPayload(null), { statusCode: 422, message: 'The webhook payload must be a JSON object.' });
  t.throws(() => validateWebhookPayload('{}'), { statusCode: 422, message: /JSON object/ });
  t.end();
});

t.test('malformed JSON text is a 400', (t) => {
  t.throws(() => parseWebhookPayload('{"event":'), { name: 'WebhookPayloadError', statusCode: 400, message: /^The webhook payload is not valid JSON: / });
  t.throws(() => parseWebhookPayload('{}'), { statusCode: 422, message: /payload\.event is required/ });
  t.end();
});

t.test('schema error messages: odd keys, Ajv spellings, unknown keywords', (t) => {
  t.equal(
    describeSchemaErrors([
      { keyword: 'required', instancePath: '/a~1b/0', params: { missingProperty: 'x-y' }, message: 'must have required property' },
      { keyword: 'minimum', instancePath: '/n', params: {}, message: 'must be >= 1' },
      { keyword: 'anyOf', instancePath: '/u', params: {}, message: 'must match a schema in anyOf' },
      { keyword: 'enum', instancePath: '', params: { allowedValues: 'z' }, message: 'must be equal' },
    ]),
    'payload["a/b"][0]["x-y"] is required; payload.n must be >= 1; payload.u must be one of the allowed shapes; payload must be one of "z"',
  );
  t.equal(describeSchemaErrors([{ keyword: 'type', instancePath: '/a~0', params: { type: 'string' }, message: 'must be string' }], 'body'), 'body["a~"] must be string');
  t.end();
});
