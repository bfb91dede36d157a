import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPageRenderer } from '../../../src/http/page-renderer.js';
import { harness } from '../../support/http-harness.js';

t.test('GET / is the chat page: HTML, bars, a labelled input, the configured length limit', async (t) => {
  const { app } = await harness(t);
  const response = await app.inject('/');
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^text\/html; charset=utf-8/);
  const html = response.body;
  for (const id of ['joy-bar', 'sadness-bar', 'anger-bar', 'fear-bar', 'curiosity-bar']) {
    t.match(html, `id="${id}"`, id);
  }
  t.match(html, '<meta name="viewport"');
  t.match(html, '<label for="message">');
  t.match(html, 'aria-live="polite"');
  t.match(html, 'maxlength="50"', 'the template is filled from the config');
  t.match(html, 'data-poll-ms="1000"');
  t.notMatch(html, '{{', 'no placeholder is left');
  t.notMatch(html, /https?:\/\//, 'no CDN or other host');
});

t.test('GET /error explains the missing key and how to fix it', async (t) => {
  const { app } = await harness(t);
  const response = await app.inject('/error');
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^text\/html/);
  for (const name of ['LLM_API_KEY', 'LLM_BASE_URL', 'LLM_MODEL', 'CHAT_API_KEY', 'CHAT_BASE_URL', 'CHAT_MODEL']) {
    t.match(response.body, name, name);
  }
  t.match(response.body, /Initialization failed/);
});

t.test('a page that cannot be rendered is a 500 with a JSON error', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'pages-'));
  writeFileSync(join(root, 'index.html'), '<p>{{unknownValue}}</p>');
  const { app } = await harness(t, { pages: createPageRenderer({ root, values: {} }) });
  for (const url of ['/', '/error']) {
    const response = await app.inject(url);
    t.equal(response.statusCode, 500, url);
    t.match(response.headers['content-type'], /^application\/json/);
    t.same(response.json(), { error: 'Failed to render the page' });
  }
});

t.test('the page assets are served; their CSS draws the bars with a 0.5 s ease transition', async (t) => {
  const { app } = await harness(t);
  const script = await app.inject('/assets/app.js');
  t.equal(script.statusCode, 200);
  t.match(script.headers['content-type'], /javascript/);
  t.match(script.body, '/api/avatar');
  t.match(script.body, 'textContent');
  t.notMatch(script.body, /insertAdjacentHTML|outerHTML/, 'replies never become HTML');
  t.same(
    script.body.match(/innerHTML = [^;]*/g),
    ['innerHTML = markdown.render(text)'],
    "HTML is set in one place only, from markdown-it's rendering",
  );
  t.match(script.body, 'markdownit({ html: false', "with markdown-it's HTML off, tags in a reply are escaped");
  const renderer = await app.inject('/assets/vendor/markdown-it.js');
  t.equal(renderer.statusCode, 200, 'markdown-it is served from the installed package');
  t.match(renderer.headers['content-type'], /^text\/javascript/);
  t.match(renderer.body, /export\s*\{[^}]*as default/);
  const css = await app.inject('/assets/style.css');
  t.equal(css.statusCode, 200);
  t.match(css.headers['content-type'], /^text\/css/);
  t.match(css.body, 'transition: width 0.5s ease');
  const missing = await app.inject('/assets/nothing.js');
  t.equal(missing.statusCode, 404);
  t.match(missing.json(), { error: /not found/ });
  const cached = await app.inject({ url: '/assets/app.js', headers: { 'if-none-match': String(script.headers.etag) } });
  t.equal(cached.statusCode, 304, 'an unchanged asset is not sent again');
  t.equal(cached.body, '');
  t.equal((await app.inject('/assets/../index.html')).statusCode, 404, 'nothing outside the assets');
});
