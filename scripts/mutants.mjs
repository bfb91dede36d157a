#!/usr/bin/env node
// The mutation probe of issue 42: each mutant in scripts/mutants.json is a small realistic change to
// the compiled code (dist-test/, and dist/ where a test spawns the built CLI bin/run.js), applied
// by an exact text replacement, then the test file(s) that should catch it are run with tap. A
// mutant is killed when one of its test files fails; it survives when they all pass. A mutant
// whose `from` text is missing, or found more than once, in one of its files no longer applies:
// the code moved and the table must follow it. Both are failures (exit code 1).
//
// Expects `npm run pretest` to have been run (it compiles src/ into dist/ and src/ + test/ into
// dist-test/). Usage:
//
//   npm run pretest && npm run mutants [id…]
//
// First each named test file runs once without a mutant and must pass (`--no-baseline` skips that);
// then one line per mutant: killed (by which test, the file's seconds and when its first failure
// was printed, its first failing assertion), survived, or no longer applies; and a last line
// `N killed, N survived`.
//
// The files are restored after each mutant, also on Ctrl-C; a run that was killed outright leaves
// its backup in dist-test/.mutant-backup.json, which the next run restores first.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TABLE = join(ROOT, 'scripts', 'mutants.json');
const BACKUP = join(ROOT, 'dist-test', '.mutant-backup.json');
const TAP = join(ROOT, 'node_modules', 'tap', 'dist', 'esm', 'run.mjs');
/** tap's bound for one test file; a mutant that makes a test hang is killed at it. */
const FILE_TIMEOUT_S = 180;

/** @typedef {{ files: string[], from: string, to: string }} Edit */
/** @typedef {{ id: string, description: string, tests: string[], files?: string[], from?: string, to?: string, edits?: Edit[] }} Mutant */

/** A mutant's replacements: `edits`, or the one given by `files`, `from` and `to`. */
function editsOf(/** @type {Mutant} */ mutant) {
  return mutant.edits ?? [{ files: mutant.files ?? [], from: mutant.from ?? '', to: mutant.to ?? '' }];
}

/** How often `text` holds `part`. */
function occurrences(text, part) {
  if (part === '') return 0;
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** The compiled test file of a test's source path: test/a/b.test.ts → dist-test/test/a/b.test.js. */
function compiledTest(test) {
  return join('dist-test', test.replace(/\.ts$/, '.js'));
}

/** Original contents of the files changed now, by path: what `restore` writes back. */
let applied = new Map();

function restore() {
  for (const [file, text] of applied) writeFileSync(join(ROOT, file), text);
  applied = new Map();
  rmSync(BACKUP, { force: true });
}

/** Applies a mutant; the reason it no longer applies, or undefined once applied. */
function apply(/** @type {Mutant} */ mutant) {
  const changed = new Map();
  for (const { files, from, to } of editsOf(mutant)) {
    if (files.length === 0) return 'no file named';
    for (const file of files) {
      const path = join(ROOT, file);
      if (!existsSync(path)) return `${file} does not exist`;
      const text = changed.get(file) ?? readFileSync(path, 'utf8');
      const found = occurrences(text, from);
      if (found !== 1) return `its text is found ${found} times in ${file}, not once`;
      changed.set(
        file,
        text.replace(from, () => to),
      );
    }
  }
  for (const file of changed.keys()) applied.set(file, readFileSync(join(ROOT, file), 'utf8'));
  writeFileSync(BACKUP, JSON.stringify(Object.fromEntries(applied)));
  for (const [file, text] of changed) writeFileSync(join(ROOT, file), text);
  return undefined;
}

/** The running tap process, ended on Ctrl-C. */
let running;

/**
 * Runs one compiled test file with tap (coverage off, TAP output): whether it passed, its seconds,
 * and the first failing assertion as "subtest > … > assertion".
 */
function runTest(file) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TAP, '--disable-coverage', '--reporter=tap', '--jobs=1', `--timeout=${FILE_TIMEOUT_S}`, file], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0' },
      // Its own process group: Ctrl-C ends it with every process its tests started.
      detached: true,
    });
    running = child;
    let output = '';
    /** When tap printed its first `not ok`: a hang's kill is that bound, not the whole file's time. */
    let failedAt;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (failedAt === undefined && /^ *not ok /m.test(output)) failedAt = (performance.now() - started) / 1000;
    });
    child.stderr.on('data', () => undefined);
    child.on('close', (code) => {
      running = undefined;
      // A process a failed test left behind (a served CLI, a supervisor) ends with its group.
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      resolve({ passed: code === 0, seconds: (performance.now() - started) / 1000, failedAt, failure: firstFailure(output) });
    });
  });
}

/** The first `not ok` line of TAP output, named with the subtests around it (the file's own level left out). */
function firstFailure(output) {
  const path = [];
  for (const line of output.split('\n')) {
    const depth = (/^( *)/.exec(line)?.[1].length ?? 0) / 4;
    const subtest = /^ *# Subtest: (.*)$/.exec(line);
    if (subtest) {
      path.length = depth;
      path[depth] = subtest[1];
      continue;
    }
    const failed = /^ *not ok \d+ - (.*?)(?: # .*)?$/.exec(line);
    if (failed) {
      const around = path.slice(1, depth);
      return [...around, failed[1]].join(' > ');
    }
  }
  return undefined;
}

async function main() {
  if (!existsSync(join(ROOT, 'dist-test', 'test')) || !existsSync(join(ROOT, 'dist'))) {
    console.error('dist-test/ or dist/ is missing: run `npm run pretest` first');
    return 2;
  }
  if (existsSync(BACKUP)) {
    applied = new Map(Object.entries(JSON.parse(readFileSync(BACKUP, 'utf8'))));
    console.error(`restoring ${[...applied.keys()].join(', ')} from a run that was killed`);
    restore();
  }
  /** @type {Mutant[]} */
  const table = JSON.parse(readFileSync(TABLE, 'utf8'));
  const args = process.argv.slice(2);
  const baseline = !args.includes('--no-baseline');
  const asked = args.filter((arg) => arg !== '--no-baseline');
  const unknown = asked.filter((id) => !table.some((mutant) => mutant.id === id));
  if (unknown.length > 0) {
    console.error(`no mutant ${unknown.join(', ')} in ${TABLE}`);
    return 2;
  }
  const chosen = asked.length === 0 ? table : table.filter((mutant) => asked.includes(mutant.id));
  // A test file that fails without a mutant would "kill" every mutant: each must pass first.
  if (baseline) {
    const files = [...new Set(chosen.flatMap((mutant) => mutant.tests))];
    let seconds = 0;
    for (const test of files) {
      const run = await runTest(compiledTest(test));
      seconds += run.seconds;
      if (!run.passed) {
        console.log(
          `# baseline: ${test} fails without a mutant (${run.failure ?? 'no failing assertion named'}): no mutant can be judged by it`,
        );
        return 1;
      }
    }
    console.log(`# baseline: the ${files.length} test files pass without a mutant (${seconds.toFixed(1)} s)`);
  }
  const width = Math.max(...chosen.map((mutant) => mutant.id.length));
  let killed = 0;
  let survived = 0;
  let stale = 0;
  for (const mutant of chosen) {
    const id = mutant.id.padEnd(width);
    const why = apply(mutant);
    if (why !== undefined) {
      stale++;
      console.log(`${id}  no longer applies: ${why} (${mutant.description})`);
      continue;
    }
    try {
      let verdict;
      let total = 0;
      for (const test of mutant.tests) {
        const run = await runTest(compiledTest(test));
        total += run.seconds;
        if (!run.passed) {
          const first = run.failedAt === undefined ? '' : `, first failure at ${run.failedAt.toFixed(1)} s`;
          verdict = `killed    by ${test} in ${run.seconds.toFixed(1)} s${first}: ${run.failure ?? 'the file failed (no failing assertion named)'}`;
          break;
        }
      }
      if (verdict === undefined) {
        survived++;
        verdict = `SURVIVED  ${mutant.tests.join(', ')} passed (${total.toFixed(1)} s): ${mutant.description}`;
      } else killed++;
      console.log(`${id}  ${verdict}`);
    } finally {
      restore();
    }
  }
  console.log(`${killed} killed, ${survived} survived${stale > 0 ? `, ${stale} no longer apply` : ''}`);
  return survived + stale > 0 ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (running?.pid !== undefined) process.kill(-running.pid, 'SIGTERM');
    restore();
    process.exit(130);
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    restore();
    console.error(error);
    process.exitCode = 2;
  },
);
