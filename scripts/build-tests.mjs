#!/usr/bin/env node
// Compiles src/ and test/ once into dist-test/ so that every test process runs plain JavaScript:
// loading tap's TypeScript loader in each of ~100 test processes cost more CPU than most tests.
// Coverage is mapped back to the .ts sources of src/ through their source maps.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const OUT = 'dist-test';
// Files the compiled code finds next to itself (`new URL('../fixtures/…', import.meta.url)`,
// the page's public/ folder, package.json for the hub client's User-Agent): linked, not copied,
// so they are always the repository's own.
const LINKED = ['package.json', 'public', 'models', 'data', 'docs', 'test/fixtures'];

rmSync(OUT, { recursive: true, force: true }); // no compiled test outlives its source
const tsc = (...args) =>
  execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), ...args], { stdio: 'inherit' });
// One compile of src/, test/ and testkit/, with source maps: coverage is reported on the .ts lines.
tsc('-p', 'tsconfig.test.json');
for (const path of LINKED) {
  const link = join(OUT, path);
  mkdirSync(dirname(link), { recursive: true });
  if (!existsSync(link)) symlinkSync(relative(dirname(link), path), link);
}
