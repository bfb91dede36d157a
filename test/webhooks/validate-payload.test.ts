import t from 'tap';
import { WebhookPayloadError } from '../../src/webhooks/errors.js';
import { parseWebhookPayload, validateWebhookPayload } from '../../src/webhooks/validate-payload.js';
import { describeSchemaErrors } from '../../src/webhooks/validation-message.js';
import { fixture, fixtureText } from './helpers.js';

t.test('every fixture is a valid payload, returned as is', (t) => {
  for (const name of [
    'repo-created',
    'repo-content-update',
    'discussion-created',
    'comment-created',
    'repo-config-update',
    'pr-merged-model-dump',
    'repo-moved',
  ] as const) {
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

t.test('every field huggingface_hub marks Optional accepts null, as its pydantic model does', (t) => {
  const optional: [string, (p: Record<string, any>) => void][] = [
    ['discussion', (p) => (p.discussion = null)],
    ['comment', (p) => (p.comment = null)],
    ['movedTo', (p) => (p.movedTo = null)],
    ['updatedRefs', (p) => (p.updatedRefs = null)],
    ['updatedConfig', (p) => (p.updatedConfig = null)],
    ['updatedRefs[].oldSha and newSha', (p) => (p.updatedRefs = [{ ref: 'refs/heads/main', oldSha: null, newSha: null }])],
    ['repo.headSha', (p) => (p.repo.headSha = null)],
    ['repo.subdomain', (p) => (p.repo.subdomain = null)],
    ['repo.tags', (p) => (p.repo.tags = null)],
    ['repo.url.api', (p) => (p.repo.url.api = null)],
    ['discussion.pinned', (p) => (p.discussion.pinned = null)],
    ['discussion.changes', (p) => (p.discussion.changes = null)],
    ['discussion.changes.mergeCommitId', (p) => (p.discussion.changes = { base: 'refs/heads/main', mergeCommitId: null })],
    ['discussion.url.api', (p) => (p.discussion.url.api = null)],
    ['comment.content', (p) => (p.comment.content = null)],
    ['comment.url.api', (p) => (p.comment.url.api = null)],
  ];
  for (const [field, setNull] of optional) {
    const payload = fixture('discussion-created') as unknown as Record<string, any>;
    setNull(payload);
    t.doesNotThrow(() => validateWebhookPayload(payload), field);
  }
  const required = fixture('discussion-created') as unknown as Record<string, any>;
  required.repo.name = null;
  required.discussion.title = null;
  t.throws(
    () => validateWebhookPayload(required),
    { message: /payload\.repo\.name must be string; payload\.discussion\.title must be string/ },
    'a required field may not be null',
  );
  t.end();
});

t.test('unknown fields are kept, at any depth, not refused', (t) => {
  const payload = fixture('repo-moved') as unknown as Record<string, any>;
  t.equal(payload.deliveredBy, 'moon-landing');
  t.equal(payload.repo.lastModified, '2024-01-12T14:03:27.000Z');
  const validated = validateWebhookPayload(payload) as unknown as Record<string, any>;
  t.equal(validated.deliveredBy, 'moon-landing');
  t.equal(validated.repo.lastModified, '2024-01-12T14:03:27.000Z');
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
      'every problem, in the order of the schema; each nullable field is explained from inside',
    );
  }
  const refs = fixture('repo-content-update') as unknown as Record<string, unknown>;
  refs.updatedRefs = [{ ref: 'refs/heads/main', newSha: 7 }];
  t.throws(() => validateWebhookPayload(refs), {
    message: 'Invalid webhook payload: payload.updatedRefs[0].newSha must be string or null.',
  });
  const comment = fixture('comment-created') as unknown as Record<string, unknown>;
  comment.comment = 'nice';
  t.throws(() => validateWebhookPayload(comment), { message: 'Invalid webhook payload: payload.comment must be object or null.' });
  t.throws(() => validateWebhookPayload(null), { statusCode: 422, message: 'The webhook payload must be a JSON object.' });
  t.throws(() => validateWebhookPayload('{}'), { statusCode: 422, message: /JSON object/ });
  t.end();
});

t.test('malformed JSON text is a 400', (t) => {
  t.throws(() => parseWebhookPayload('{"event":'), {
    name: 'WebhookPayloadError',
    statusCode: 400,
    message: /^The webhook payload is not valid JSON: /,
  });
  t.throws(() => parseWebhookPayload('{}'), { statusCode: 422, message: /payload\.event is required/ });
  t.end();
});

t.test('a long wrong array names eight problems and counts the others', (t) => {
  const payload = fixture('repo-content-update') as unknown as Record<string, any>;
  payload.repo.tags = Array.from({ length: 5000 }, (_, i) => i);
  payload.webhook.version = 2;
  const listed = Array.from({ length: 8 }, (_, i) => `payload.repo.tags[${i}] must be string`).join('; ');
  t.throws(() => validateWebhookPayload(payload), {
    statusCode: 422,
    message: `Invalid webhook payload: ${listed}; and 4993 more problems.`,
  });
  t.end();
});

t.test('schema error messages: odd keys, Ajv spellings, unknown keywords', (t) => {
  t.equal(
    describeSchemaErrors([
      { keyword: 'required', instancePath: '/a~1b/0', params: { missingProperty: 'x-y' }, message: 'must have required property' },
      { keyword: 'minimum', instancePath: '/n', params: {}, message: 'must be >= 1' },
      {
        keyword: 'type',
        instancePath: '/u',
        params: { type: 'integer' },
        message: 'must be integer',
        parentSchema: { type: 'integer', nullable: true },
      },
      { keyword: 'enum', instancePath: '', params: { allowedValues: 'z' }, message: 'must be equal' },
      { keyword: 'const', instancePath: '/webhook/version', params: { allowedValue: 3 }, message: 'must be equal to constant' },
    ]),
    'payload["a/b"][0]["x-y"] is required; payload.n must be >= 1; payload.u must be integer or null; payload must be one of "z"; ' +
      'payload.webhook.version must be 3',
  );
  t.equal(
    describeSchemaErrors([{ keyword: 'type', instancePath: '/a~0', params: { type: 'string' }, message: 'must be string' }], 'body'),
    'body["a~"] must be string',
  );
  t.end();
});
