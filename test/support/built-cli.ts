import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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
