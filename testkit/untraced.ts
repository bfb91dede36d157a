/**
 * The command and arguments that start `command …args` as a user would, without the test runner's
 * process hooks. tap's runner (`npx tap`, `npm run coverage`) adds @tapjs/processinfo's `--import`
 * to the NODE_OPTIONS of every child a test starts (after the caller's own `env` is applied), and
 * its module hooks, a thread each process, doubled the CPU a `hub serve` spends loading itself.
 * Through `env -u NODE_OPTIONS` the child runs with the same pid and signals, minus the hooks. Where
 * tap's runner did not start the test (`npm test`'s scripts/test.mjs loads no hooks; the bench), or
 * while coverage is measured (where what a child runs counts), the command is left as it is.
 */
export function untraced(command: string, args: readonly string[]): [string, string[]] {
  if (process.env.TAP_CHILD_ID === undefined || process.env.TEST_COVERAGE === '1') return [command, [...args]];
  return ['/usr/bin/env', ['-u', 'NODE_OPTIONS', command, ...args]];
}
