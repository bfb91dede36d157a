// `RECORD_IMPORTS_FILE=out.json node --import ./test/support/record-imports.mjs …`: at exit, writes to
// that file, as a JSON array, every module the process loaded: the ES modules (through a resolve hook,
// which sees them all) and the CommonJS ones (require.cache).
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const resolved = new Set();
port1.on('message', (url) => resolved.add(url));
port1.unref();
register('./record-imports-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

process.on('exit', () => {
  const cjs = Object.keys(createRequire(import.meta.url).cache);
  writeFileSync(process.env.RECORD_IMPORTS_FILE, JSON.stringify([...new Set([...resolved, ...cjs])]));
});
