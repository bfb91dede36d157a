import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { type ErrorCode, ERRORS } from '../../src/errors/catalogue.js';
import { ROOT } from '../support/built-cli.js';

// The docs' error tables, held to the catalogue the way fastify's test/internals/errors.test.js holds
// docs/Reference/Errors.md to lib/errors.js: every code is documented, with its status and its words.

interface Row {
  readonly doc: string;
  readonly status: string;
  readonly code: string;
  readonly body: string;
}

/** The rows of every `| Status | Code | When | Body |` table of a doc. */
function errorRows(doc: string): Row[] {
  const rows: Row[] = [];
  let inTable = false;
  for (const line of readFileSync(join(ROOT, 'docs', doc), 'utf8').split('\n')) {
    if (/^\|\s*Status\s*\|\s*Code\s*\|\s*When\s*\|\s*Body\s*\|$/.test(line)) inTable = true;
    else if (!line.startsWith('|')) inTable = false;
    else if (inTable && !line.startsWith('|---')) {
      const cells = line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim());
      const [status = '', code = '', , body = ''] = cells;
      rows.push({ doc, status, code: code.replace(/^`|`$/g, ''), body });
    }
  }
  return rows;
}

/** The message as a pattern: each `%s` any words, as the doc shows them (an example, or `…`). */
function messagePattern(message: string): RegExp {
  const parts = message.split('%s').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+')}$`);
}

const DOCS = {
  'chat-api.md': (code: string) => !code.startsWith('WEBHOOK_'),
  'webhooks-receiver.md': (code: string) => code.startsWith('WEBHOOK_'),
};

for (const [doc, owns] of Object.entries(DOCS)) {
  t.test(`docs/${doc}: each row says its code's status and words`, (t) => {
    const rows = errorRows(doc).filter((row) => row.code in ERRORS);
    t.ok(rows.length > 5, 'the tables are found');
    for (const { status, code, body } of rows) {
      const entry = ERRORS[code as ErrorCode];
      t.ok(status === String(entry.statusCode) || (status === '4xx' && entry.statusCode < 500), `${code}: status ${status}`);
      const json = JSON.parse(body.replace(/^`|`$/g, '').replace(/\\\|/g, '|')) as Record<string, unknown>;
      const { error, ...fields } = json;
      t.match(String(error).replace(/…/g, 'x'), messagePattern(entry.message), `${code}: its message`);
      t.same(fields, 'body' in entry ? entry.body : {}, `${code}: the fields beside error`);
    }
    t.end();
  });

  t.test(`docs/${doc}: every code of its app has a row`, (t) => {
    const documented = new Set(errorRows(doc).map((row) => row.code));
    const missing = Object.keys(ERRORS).filter((code) => owns(code) && !documented.has(code));
    t.same(missing, [], 'no code left out');
    t.end();
  });
}

t.test("docs/chat-api.md: the chat's check order, state first", (t) => {
  const order = errorRows('chat-api.md').map((row) => row.code);
  const at = (code: string) => order.indexOf(code);
  t.ok(at('NOT_INITIALIZED') < at('UNSUPPORTED_MEDIA_TYPE'), 'the state before the body');
  t.ok(at('UNSUPPORTED_MEDIA_TYPE') < at('BODY_TOO_LARGE'), 'the type before the size');
  t.ok(at('BODY_TOO_LARGE') < at('MALFORMED_JSON') && at('MALFORMED_JSON') < at('NO_MESSAGE'), 'read, then parsed, then validated');
  t.end();
});
