#!/usr/bin/env node
// Runs tap and ends with the plain `N passed, N failed` line CI reads; tap's own
// closing line is `# { total: …, pass: … }`, which CI does not understand.
// The tests run as the JavaScript `pretest` compiled into dist-test/ (scripts/build-tests.mjs, whose
// files .taprc includes): no test process loads a TypeScript loader, and tap's TypeScript and mock
// plugins are off (.taprc), so each of the ~220 test processes starts without their two --import hooks.
// Coverage is measured by `npm run coverage` (this script with --coverage), against the floor in
// .taprc: collecting it in every test process and every child they start cost a quarter of the
// suite's CPU, so `npm test` checks behaviour alone.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const coverage = args.includes('--coverage');
const child = spawn(
  process.execPath,
  ['node_modules/tap/dist/esm/run.mjs', ...(coverage ? [] : ['--disable-coverage']), ...args.filter((arg) => arg !== '--coverage')],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    // TEST_COVERAGE: the children a test starts keep tap's hooks, so that what they run is counted too.
    env: { ...process.env, FORCE_COLOR: '0', ...(coverage && { TEST_COVERAGE: '1' }) },
  },
);
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk).slice(-8192);
});
child.on('close', (code) => {
  const summary = tail
    .split('\n')
    .reverse()
    .find((line) => line.startsWith('# { total'));
  const counts = Object.fromEntries(
    (/# \{ ([^}]*) \}/.exec(summary ?? '')?.[1] ?? '')
      .split(',')
      .map((pair) => pair.trim().split(': '))
      .filter((pair) => pair.length === 2)
      .map(([key, value]) => [key, Number(value)]),
  );
  const skipped = (counts.skip ?? 0) + (counts.todo ?? 0);
  if (code !== 0 && !counts.fail) {
    console.log(`# tap exited non-zero: a test file crashed${coverage ? ' or coverage fell below the floor in .taprc' : ''}`);
  }
  // A run that exited non-zero never reads as green, even when every check passed (a crash, the floor).
  console.log(`${counts.pass ?? 0} passed, ${counts.fail || (code === 0 ? 0 : 1)} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code ?? 1);
});
