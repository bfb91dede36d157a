import type { Test } from 'tap';

type FixtureContent = Parameters<Test['testdir']>[0];

/**
 * `t.testdir()`, removed after the test's teardowns instead of before them. tap removes a fixture
 * made before the test's first `t.teardown()` ahead of every teardown: a service still running
 * writes into the folder while it is removed (ENOTEMPTY), the rejection skips the teardowns, and
 * the server they would close keeps the file alive until tap's timeout. Registering a teardown
 * first makes the removal wrap the teardowns.
 */
export function testDir(t: Test, content?: FixtureContent): string {
  t.teardown(() => undefined);
  return t.testdir(content);
}
