import t from 'tap';
import { escapeHtml } from '../../src/runtime/html.js';

t.test('the five characters that end HTML content or a quoted attribute are escaped, the rest kept', async (t) => {
  t.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  t.equal(escapeHtml('plain text, é and ✓'), 'plain text, é and ✓');
});
