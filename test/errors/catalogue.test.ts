import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { ERRORS } from '../../src/errors/catalogue.js';
import { ROOT } from '../support/built-cli.js';

// Walks the table the way fastify's test/internals/errors.test.js walks lib/errors.js.
const SRC = join(ROOT, 'src');
const CATALOGUE = join(SRC, 'errors', 'catalogue.ts');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && path !== CATALOGUE ? [path] : [];
  });
}

t.test('every code has a 4xx or 5xx status and a message', (t) => {
  for (const [code, entry] of Object.entries(ERRORS)) {
    t.match(code, /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/, `${code}: a constant's name`);
    t.ok(Number.isInteger(entry.statusCode) && entry.statusCode >= 400 && entry.statusCode < 600, `${code}: status ${entry.statusCode}`);
    t.ok(typeof entry.message === 'string' && entry.message.trim().length > 0, `${code}: a message`);
  }
  t.end();
});

t.test('codes are unique, and no two codes say the same thing with the same status', (t) => {
  const text = readFileSync(CATALOGUE, 'utf8');
  for (const code of Object.keys(ERRORS)) {
    t.equal(text.match(new RegExp(`^\\s+${code}:`, 'gm'))?.length, 1, `${code} is declared once`);
  }
  const said = Object.entries(ERRORS).map(([code, entry]) => [`${entry.statusCode} ${entry.message}`, code] as const);
  const twins = said.filter(([key], index) => said.findIndex(([other]) => other === key) !== index);
  t.same(twins, [], 'no copy-paste twins');
  t.end();
});

t.test('every code is used by the code', (t) => {
  const files = sources(SRC).map((file) => ({ file: relative(SRC, file), text: readFileSync(file, 'utf8') }));
  for (const code of Object.keys(ERRORS)) {
    const users = files.filter(({ text }) => text.includes(`'${code}'`) || text.includes(`ERRORS.${code}`));
    t.ok(users.length > 0, `${code} is used${users.length > 0 ? ` (${users.map((u) => u.file).join(', ')})` : ''}`);
  }
  t.end();
});

t.test('the module that holds it imports nothing (the receiver is the light entry)', (t) => {
  t.notMatch(readFileSync(CATALOGUE, 'utf8'), /^\s*import\b/m);
  t.end();
});

t.test("docs/specification.md's and the Hub's bodies, word for word where they are fixed", (t) => {
  t.same(ERRORS.NOT_INITIALIZED.body, { is_initialized: false, status: 'initializing' });
  t.same(ERRORS.MISSING_LLM_KEY.body, { status: 'missing_llm_key', is_initialized: false });
  t.same(ERRORS.AVATAR_FAILED.body, { avatar_shape: 'Circle', status: 'error' });
  t.same(ERRORS.WEBHOOK_SECRET_MISSING, { statusCode: 401, message: 'x-webhook-secret header not set.' });
  t.same(ERRORS.WEBHOOK_SECRET_INVALID, { statusCode: 403, message: 'Invalid webhook secret.' });
  t.end();
});
