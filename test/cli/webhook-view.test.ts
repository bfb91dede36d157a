import t from 'tap';
import { webhookDetails, webhookJson, webhookTable } from '../../src/cli/webhook-view.js';
import type { Webhook } from '../../src/hub/types.js';

const webhook: Webhook = {
  id: 'w1',
  url: 'https://e.x/h',
  watched: [{ type: 'model', name: 'gpt2' }],
  domains: [],
  secret: '',
  disabled: false,
};

t.test('an empty secret counts as none; no domains read as (none)', (t) => {
  t.same(webhookJson(webhook), {
    id: 'w1',
    url: 'https://e.x/h',
    watched: webhook.watched,
    domains: [],
    disabled: false,
    hasSecret: false,
  });
  t.match(webhookDetails(webhook), /^domains {2}\(none\)\nsecret {3}\(none\)$/m);
  t.equal(webhookTable([webhook]), 'ID  URL            STATUS   DOMAINS  WATCHED\nw1  https://e.x/h  enabled           model:gpt2');
  t.end();
});
