import t from 'tap';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUBLIC_DIR, createPageRenderer } from '../../../src/http/page-renderer.js';
import { harness } from '../../support/harness.js';

t.test('GET / is the chat page: HTML, bars, a labelled input, the configured length limit', async (t) => {
  const { app } = await harness(t, { system: 'fake' });
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
  t.match(html, 'data-max-length="50"', 'the template is filled from the config');
  t.match(html, 'data-poll-ms="1000"');
  t.notMatch(html, '{{', 'no placeholder is left');
  t.notMatch(html, /https?:\/\//, 'no CDN or other host');
});

t.test('GET / opens with the mood: one inline style, admitted by a nonce of its own per page', async (t) => {
  const { app, system } = await harness(t, { system: 'fake' });
  system.avatarShape = 'Triangle';
  const nonces = new Set<string>();
  for (let load = 0; load < 2; load += 1) {
    const response = await app.inject('/');
    const policy = String(response.headers['content-security-policy']);
    const nonce = /style-src 'self' 'nonce-([\w+/=]+)'/.exec(policy)?.[1];
    t.ok(nonce, policy);
    t.match(response.body, `<style nonce="${nonce}">#avatar{--body:rgb(`);
    t.notMatch(policy, 'unsafe-inline');
    t.match(response.body, 'data-shape="Triangle"');
    nonces.add(String(nonce));
  }
  t.equal(nonces.size, 2, 'a new nonce for each page');
  t.notMatch(String((await app.inject('/api/avatar')).headers['content-security-policy']), 'nonce', 'only the page has one');
  system.answersStatus = false;
  const unknown = await app.inject('/');
  t.equal(unknown.statusCode, 200, 'a system that cannot say its mood still gets its page');
  t.match(unknown.body, 'data-shape="Circle"', 'with the still mood of a start, which the first poll replaces');
});

t.test('GET /error explains the missing key and how to fix it', async (t) => {
  const { app } = await harness(t, { system: 'fake' });
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
  const { app } = await harness(t, { system: 'fake', app: { pages: createPageRenderer({ root, values: {} }) } });
  for (const url of ['/', '/error']) {
    const response = await app.inject(url);
    t.equal(response.statusCode, 500, url);
    t.match(response.headers['content-type'], /^application\/json/);
    t.same(response.json(), { error: 'Failed to render the page' });
  }
});

/** The page's own scripts (public/assets/*.js), by name, as the service serves them. */
async function pageScripts(app: Awaited<ReturnType<typeof harness>>['app']): Promise<Map<string, string>> {
  const scripts = new Map<string, string>();
  for (const name of readdirSync(join(PUBLIC_DIR, 'assets')).filter((file) => file.endsWith('.js'))) {
    const response = await app.inject(`/assets/${name}`);
    if (response.statusCode !== 200) throw new Error(`/assets/${name} answered ${response.statusCode}`);
    scripts.set(name, response.body);
  }
  return scripts;
}

t.test('the page assets are served; their CSS draws the bars with a 0.5 s ease transition', async (t) => {
  const { app } = await harness(t, { system: 'fake' });
  const script = await app.inject('/assets/app.js');
  t.equal(script.statusCode, 200);
  t.match(script.headers['content-type'], /javascript/);
  const scripts = await pageScripts(app);
  const all = [...scripts.values()].join('\n');
  t.match(scripts.get('status.js'), '/api/avatar');
  t.match(all, 'textContent');
  t.notMatch(all, /insertAdjacentHTML|outerHTML/, 'replies never become HTML');
  t.same(
    all.match(/innerHTML = [^;]*/g),
    ['innerHTML = markdown.render(text)'],
    "HTML is set in one place only, from markdown-it's rendering",
  );
  t.match(scripts.get('conversation.js'), 'markdownit({ html: false', "with markdown-it's HTML off, tags in a reply are escaped");
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

t.test("the page's parts talk through one emitter (mitt, served from the package), never by importing each other", async (t) => {
  const { app } = await harness(t, { system: 'fake' });
  const emitter = await app.inject('/assets/vendor/mitt.js');
  t.equal(emitter.statusCode, 200, 'mitt is served from the installed package');
  t.match(emitter.headers['content-type'], /^text\/javascript/);
  t.match(emitter.body, /^export default function/);
  const scripts = await pageScripts(app);
  const imports = (source: string) => [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1] ?? '');
  const parts = ['avatar.js', 'bars.js', 'composer.js', 'conversation.js', 'event-stream.js', 'page-menu.js', 'status.js', 'theme.js'];
  t.same(
    imports(scripts.get('app.js') ?? ''),
    ['/assets/vendor/mitt.js', ...parts.map((part) => `./${part}`)],
    'the entry makes the emitter and mounts each part',
  );
  for (const part of parts) {
    t.ok(scripts.has(part), `${part} is served`);
    const theirs = imports(scripts.get(part) ?? '').filter((path) => parts.includes(path.replace('./', '')));
    t.same(theirs, [], `${part} imports no other part`);
  }
});
