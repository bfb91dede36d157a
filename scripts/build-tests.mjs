#!/usr/bin/env node
// `npm test`'s build: the package (`npm run build`'s dist/ and oclif manifest), and src/ and test/
// compiled once into dist-test/ so that every test process runs plain JavaScript: loading tap's
// TypeScript loader in each of ~220 test processes cost more CPU than most tests.
// Coverage is mapped back to the .ts sources of src/ through their source maps.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const OUT = 'dist-test';
// Files the compiled code finds next to itself (`new URL('../fixtures/…', import.meta.url)`,
// the page's public/ folder, package.json for the hub client's User-Agent): linked, not copied,
// so they are always the repository's own.
const LINKED = ['package.json', 'public', 'models', 'data', 'docs', 'test/fixtures'];

rmSync(OUT, { recursive: true, force: true }); // no compiled test outlives its source
const run = (command, args, env = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
// The package's build (dist/ and the oclif manifest, for the tests that start `hub`) and one compile of
// src/, test/ and testkit/ with source maps (coverage is reported on the .ts lines), side by side: each
// tsc is one thread, so on two cores the pair takes about the time of the longer one.
await Promise.all([
  run('npm', ['run', '--silent', 'build'], { OCLIF_SKIP_NEW_VERSION_CHECK: 'true' }),
  run(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.test.json']),
]);
for (const path of LINKED) {
  const link = join(OUT, path);
  mkdirSync(dirname(link), { recursive: true });
  if (!existsSync(link)) symlinkSync(relative(dirname(link), path), link);
}
