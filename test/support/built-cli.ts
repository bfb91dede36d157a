import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../testkit/package-root.js';
import { untraced } from '../../testkit/untraced.js';

export { ROOT };

/**
 * Throws a clear error when the build is missing. The build runs once before the tests (`npm test`'s
 * pretest), never inside one: a rebuild in a test could outlast tap's timeout on a busy machine.
 */
export function requireBuilt(): void {
  const missing = ['dist/index.js', 'oclif.manifest.json'].filter((path) => !existsSync(join(ROOT, path)));
  if (missing.length > 0) throw new Error(`${missing.join(' and ')} missing: run \`npm run build\` before this test`);
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
      ...untraced(process.execPath, ['bin/run.js', ...args]),
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
