import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/** The repository's folder (ends with a separator): the nearest one above with a package.json, as the
 * tests run both from test/ and compiled from dist-test/test/. */
export const ROOT = packageRoot(import.meta.dirname);

function packageRoot(from: string): string {
  return existsSync(join(from, 'package.json')) || dirname(from) === from ? from + sep : packageRoot(dirname(from));
}

/** Builds dist/ when src/ is newer (the same check `npm start` makes); `npm test` has built already. */
export function ensureBuilt(): void {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'ignore' });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/run.js …args` as a child process, with only the given environment (plus PATH/HOME). */
export function runBuiltCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/run.js', ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
