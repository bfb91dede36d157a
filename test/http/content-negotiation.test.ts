import t from 'tap';
import { prefersHtml } from '../../src/http/content-negotiation.js';

t.test('a browser navigation asks for HTML; API clients keep JSON', (t) => {
  const html = [
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', // Chromium, Firefox
    'text/html',
    'TEXT/HTML; charset=utf-8',
    'application/json;q=0.5, text/html',
  ];
  const json = [
    undefined,
    '',
    '*/*', // curl, fetch
    'application/json',
    'application/json, text/plain, */*', // axios
    'text/html;q=0',
    'text/*',
    'application/json, text/html', // a tie goes to the API's own format
    'application/json, text/html;q=0.5',
    'text/event-stream',
  ];
  for (const accept of html) t.ok(prefersHtml(accept), String(accept));
  for (const accept of json) t.notOk(prefersHtml(accept), String(accept));
  t.end();
});
