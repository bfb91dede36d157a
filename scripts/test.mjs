#!/usr/bin/env node
// `npm test`: runs every compiled test file (what `pretest` built into dist-test/, see
// scripts/build-tests.mjs) and ends with the plain `N passed, N failed` line CI reads.
//
// Each file is a tap test that runs as a plain `node` process: with TAP=1, tap prints its TAP and,
// last, the file's counts (`# { total: 9, pass: 9 }`), which are summed here. tap's own runner
// would load @tapjs/processinfo's module hooks (a thread each) into every test process and every
// child it starts, for coverage and its process tree: measured, that doubled what a test process
// spends loading the service and cost about a fifth of the suite's CPU. Files run `jobs` at a time
// and are ended after `timeout` seconds, both from .taprc; each file's output is printed whole once
// it has ended, so that files' lines never interleave.
//
// `--coverage` (`npm run coverage`) runs tap's own runner instead, which measures coverage against
// the floor in .taprc; the children a test starts then keep tap's hooks (TEST_COVERAGE), so that
// what they run is counted too. Other arguments name the compiled files to run:
// `npm run pretest && node scripts/test.mjs dist-test/test/path/file.test.js`.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const taprc = readFileSync('.taprc', 'utf8');
const setting = (name) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(taprc)?.[1]);

/** The counts a tap file prints last, e.g. `# { total: 12, pass: 11, fail: 1 }`; `{}` when it printed none. */
function countsOf(output) {
  const summary = output
    .split('\n')
    .reverse()
    .find((line) => line.startsWith('# { total'));
  return Object.fromEntries(
    (/# \{ ([^}]*) \}/.exec(summary ?? '')?.[1] ?? '')
      .split(',')
      .map((pair) => pair.trim().split(': '))
      .filter((pair) => pair.length === 2)
      .map(([key, value]) => [key, Number(value)]),
  );
}

/** Prints the closing line and exits: a run that exited non-zero never reads as green (a crash, the floor). */
function close(counts, code, note) {
  const skipped = (counts.skip ?? 0) + (counts.todo ?? 0);
  if (code !== 0 && !counts.fail) console.log(`# ${note}`);
  console.log(`${counts.pass ?? 0} passed, ${counts.fail || (code === 0 ? 0 : 1)} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code);
}

/** tap's own runner, with coverage and its floor. */
function runWithCoverage() {
  const child = spawn(process.execPath, ['node_modules/tap/dist/esm/run.mjs', ...args.filter((arg) => arg !== '--coverage')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FORCE_COLOR: '0', TEST_COVERAGE: '1' },
  });
  let tail = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    tail = (tail + chunk).slice(-8192);
  });
  child.on('close', (code) =>
    close(countsOf(tail), code ?? 1, 'tap exited non-zero: a test file crashed or coverage fell below the floor in .taprc'),
  );
}

/** One file: its output, its counts, and whether it ended well (status 0, no failure, counts printed). */
function runFile(file, timeoutMs) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--enable-source-maps', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // TAP_TIMEOUT: tap's own bound for the file (it reports the handles still open, then exits); the kill below is the backstop.
      env: { ...process.env, TAP: '1', TAP_TIMEOUT: String(timeoutMs / 1000), FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs + 15_000);
    let ended = false;
    const end = (code, signal) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      const counts = countsOf(output);
      const why = timedOut
        ? `killed ${timeoutMs / 1000 + 15} s after it started`
        : code !== 0
          ? `exited with ${code ?? signal}`
          : undefined;
      const ok = why === undefined && counts.total !== undefined && !counts.fail;
      resolve({ output, counts, ok, why: why ?? (ok ? undefined : 'printed no counts'), ms: Date.now() - started });
    };
    child.on('close', end);
    // A process the test left running may hold its output open: the file's end is its own exit.
    child.on('exit', (code, signal) => {
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        end(code, signal);
      }, 2000).unref();
    });
  });
}

async function runFiles() {
  const files =
    args.length > 0
      ? args
      : readdirSync('dist-test/test', { recursive: true })
          .filter((name) => name.endsWith('.test.js'))
          .map((name) => join('dist-test/test', name))
          .sort((a, b) => a.localeCompare(b, 'en'));
  const jobs = setting('jobs') || 3;
  const timeoutMs = (setting('timeout') || 300) * 1000;
  const totals = { pass: 0, fail: 0, skip: 0, todo: 0 };
  const failed = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      const result = await runFile(file, timeoutMs);
      process.stdout.write(`# Subtest: ${file}\n${result.output.replace(/^(?=.)/gm, '    ')}\n`);
      console.log(`${result.ok ? 'ok' : 'not ok'} - ${file}${result.why ? ` (${result.why})` : ''} # time=${result.ms}ms`);
      for (const key of Object.keys(totals)) totals[key] += result.counts[key] ?? 0;
      if (!result.ok) {
        failed.push(file);
        if (!result.counts.fail) totals.fail += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  if (failed.length > 0) console.log(`# failed: ${failed.join(' ')}`);
  // A run of no file is no pass. `close` prints the note only when no failure was counted, which here means no file ran.
  close(totals, failed.length === 0 && files.length > 0 ? 0 : 1, 'no test file found: run `npm run pretest` first');
}

if (args.includes('--coverage')) runWithCoverage();
else await runFiles();
