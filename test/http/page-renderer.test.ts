import t from 'tap';
import { firstPaint } from '../../src/http/first-paint.js';
import { FIVE_MOODS } from '../support/moods.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TemplateError, createPageRenderer, fillTemplate } from '../../src/http/page-renderer.js';

t.test('fillTemplate fills every placeholder, escaped', (t) => {
  t.equal(fillTemplate('<p title="{{a}}">{{ b }}</p>', { a: '"x" & <y>', b: 42 }), '<p title="&quot;x&quot; &amp; &lt;y&gt;">42</p>');
  t.equal(fillTemplate('{{a}}', { a: "it's" }), 'it&#39;s');
  t.end();
});

t.test('a placeholder without a value is an error, never left in the page', (t) => {
  t.throws(() => fillTemplate('{{missing}}', {}), TemplateError);
  t.throws(() => fillTemplate('{{missing}}', {}), { name: 'TemplateError', message: /\{\{missing\}\}/ });
  t.end();
});

t.test('the renderer reads a template once, and retries a read that failed', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'renderer-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const renderer = createPageRenderer({ root, values: { name: 'there' } });
  await t.rejects(renderer.render('index'), { code: 'ENOENT' });
  writeFileSync(join(root, 'index.html'), 'hello {{name}}');
  t.equal(await renderer.render('index'), 'hello there', 'the failed read was not cached');
  writeFileSync(join(root, 'index.html'), 'changed');
  t.equal(await renderer.render('index'), 'hello there', 'the good read is cached');
});

t.test('the shipped templates render with the values the app and the request give them', async (t) => {
  const renderer = createPageRenderer({ values: { maxMessageLength: 4000, pollIntervalMs: 1000 } });
  const paint = await firstPaint({ emotions: FIVE_MOODS.sadness, avatarShape: 'Square' });
  const index = await renderer.render('index', { ...paint.values, theme: 'dark' });
  t.match(index, '<html lang="en" data-theme="dark">', 'the theme the visitor chose');
  t.match(index, 'data-max-length="4000"');
  t.notMatch(index, 'maxlength=', 'no maxlength: a paste over the limit is never cut silently');
  t.match(index, 'data-shape="Square"', 'the shape it opens with');
  t.match(index, 'aria-label="Square, mostly sadness"');
  t.match(index, '<span id="avatar-mood">mostly sadness</span>');
  await t.rejects(renderer.render('index', { theme: 'system' }), /styleNonce/, 'the page is never rendered without its mood');
  t.match(await renderer.render('error'), 'LLM_API_KEY');
  t.match(await renderer.render('not-found', { path: '/nowhere<b>' }), '<code>/nowhere&lt;b&gt;</code>', 'the path, escaped');
});
