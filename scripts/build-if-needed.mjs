#!/usr/bin/env node
// `npm start` on a fresh clone must work without a separate build step, but a
// rebuild on every start would cost seconds: build only when src/ is newer than dist/.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const built = existsSync('dist/index.js') && existsSync('oclif.manifest.json');
const stale = !built || newestMtime('src') > statSync('oclif.manifest.json').mtimeMs;
if (stale) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
