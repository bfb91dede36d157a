import t from 'tap';
import { renderLandingPage } from '../../src/webhooks/landing-page.js';
import { readyMessages, secretMessages } from '../../src/webhooks/startup-messages.js';

t.test('everything interpolated is escaped', (t) => {
  const html = renderLandingPage({
    url: 'https://evil.example/<script>',
    webhooks: [{ name: 'x', url: 'https://evil.example/<script>alert(1)</script>/webhooks/x' }],
    secretSet: false,
    local: false,
  });
  t.notMatch(html, '<script>');
  t.match(html, 'POST https://evil.example/&lt;script&gt;alert(1)&lt;/script&gt;/webhooks/x');
  t.end();
});

t.test('states: no route yet, open routes, remote URL', (t) => {
  const html = renderLandingPage({ url: 'https://me-hooks.hf.space', webhooks: [], secretSet: false, local: false });
  t.match(html, 'No webhook is registered yet.');
  t.match(html, 'No secret is set: these routes are open to everyone.');
  t.notMatch(html, 'runs locally');
  t.match(html, 'https://huggingface.co/settings/webhooks');
  t.end();
});

t.test('startup lines, as huggingface_hub prints them', (t) => {
  t.same(secretMessages(true), ['Webhook secret is correctly defined.']);
  t.equal(secretMessages(false).length, 3);
  t.same(readyMessages('http://127.0.0.1:7860', undefined, ['http://127.0.0.1:7860/webhooks/a']), [
    'Running on local URL:  http://127.0.0.1:7860',
    '',
    'Webhooks are correctly setup and ready to use:',
    '  - POST http://127.0.0.1:7860/webhooks/a',
    'Go to https://huggingface.co/settings/webhooks to setup your webhooks.',
  ]);
  t.end();
});
