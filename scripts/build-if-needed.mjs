#!/usr/bin/env node
// `npm start` on a fresh clone must work without a separate build step, but a
// rebuild on every start would cost seconds: build only when src/ is newer than dist/.
// The build says what it does in one line and keeps its own output (tsc's, oclif's) unless it fails;
// oclif's "update available" check is off: it is about the build tool, not this package.
import { spawnSync } from 'node:child_process';
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
if (stale) {
  console.log(`Building emotion-hub (${built ? 'src/ changed' : 'first start'}; up to a minute)…`);
  const build = spawnSync('npm', ['run', '--silent', 'build'], {
    env: { ...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true' },
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}`);
    console.error(`The build failed (${build.error?.message ?? `exit status ${build.status}`}); nothing was started.`);
    process.exit(1);
  }
}
