import t from 'tap';
import { readWebhook, readWebhookEnvelope, readWebhookList } from '../../src/hub/webhook-json.js';
import { jobWebhookJson, urlWebhookJson } from '../support/hub-fixtures.js';

t.test('a URL webhook and a job webhook read as typed objects; unknown keys drop', (t) => {
  t.same(readWebhook(urlWebhookJson), {
    id: urlWebhookJson.id,
    url: urlWebhookJson.url,
    watched: urlWebhookJson.watched,
    domains: ['repo', 'discussion'],
    secret: 'my-secret',
    disabled: false,
  });
  const job = readWebhook({ ...jobWebhookJson, url: null, secret: null });
  t.same(Object.keys(job), ['id', 'job', 'watched', 'domains', 'disabled']);
  t.same(readWebhook({ ...urlWebhookJson, watched: [{ type: 'model', name: 'gpt2', extra: 1 }] }).watched, [
    { type: 'model', name: 'gpt2' },
  ]);
  t.end();
});

t.test('required keys are checked so that a broken answer fails here, clearly', (t) => {
  const cases: [unknown, RegExp][] = [
    [null, /not an object/],
    [[], /not an object/],
    [{ ...urlWebhookJson, id: '' }, /without an "id"/],
    [{ ...urlWebhookJson, watched: [{ type: 'model' }] }, /"watched" is not a list/],
    [{ ...urlWebhookJson, watched: undefined }, /"watched" is not a list/],
    [{ ...urlWebhookJson, domains: [1] }, /"domains" is not a list of strings/],
    [{ ...urlWebhookJson, disabled: 'no' }, /"disabled" is not a boolean/],
    [{ ...urlWebhookJson, job: 'ubuntu' }, /"job" is not an object/],
    [{ ...urlWebhookJson, url: 5 }, /"url" is not a string/],
  ];
  for (const [data, message] of cases) t.throws(() => readWebhook(data), message);
  t.end();
});

t.test('envelope and list shapes', (t) => {
  t.equal(readWebhookEnvelope({ webhook: urlWebhookJson }).id, urlWebhookJson.id);
  t.throws(() => readWebhookEnvelope(urlWebhookJson), /no "webhook" key/);
  t.throws(() => readWebhookEnvelope('x'), /no "webhook" key/);
  t.equal(readWebhookList([urlWebhookJson, jobWebhookJson]).length, 2);
  t.throws(() => readWebhookList({}), /not an array/);
  t.end();
});
