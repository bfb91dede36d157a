import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, requireBuilt, runBuiltCli } from '../support/built-cli.js';

// docs/specification.md#contract: the names other tools and tests rely on, read from the shipped files.
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

t.test('package: name emotion-hub, ESM, the Node range, bin hub', (t) => {
  t.equal(pkg.name, 'emotion-hub');
  t.equal(pkg.type, 'module');
  t.same(pkg.engines, { node: '^20.19.0 || >=22.12.0' });
  t.same(pkg.bin, { hub: './bin/run.js' });
  t.equal(pkg.oclif.bin, 'hub');
  t.equal(pkg.oclif.topicSeparator, ' ', '`hub webhooks ls`, not `hub webhooks:ls`');
  t.end();
});

t.test('npm start builds if needed and is `hub serve --supervise`; npm test builds and runs every test', (t) => {
  t.equal(pkg.scripts.start, 'node bin/run.js serve --supervise');
  t.match(pkg.scripts.prestart, 'build-if-needed');
  // The build runs beside the tests' own compile (scripts/build-tests.mjs): the package's build script itself.
  t.equal(pkg.scripts.pretest, 'node scripts/build-tests.mjs');
  t.match(readFileSync(join(ROOT, 'scripts', 'build-tests.mjs'), 'utf8'), "run('npm', ['run', '--silent', 'build']");
  t.equal(pkg.scripts.test, 'node scripts/test.mjs');
  t.end();
});

const SPEC_COMMANDS: Record<string, { args: string[]; flags: string[]; optionalArgs?: true }> = {
  serve: { args: [], flags: [] },
  // `hub replay FILE` or `hub replay --redis URL`: one of the two.
  replay: { args: ['file'], flags: ['redis'], optionalArgs: true },
  machine: { args: [], flags: [] },
  // docs/specification.md#the-hub-webhooks-commands: each command's argument and flags.
  'webhooks:ls': { args: [], flags: [] },
  'webhooks:info': { args: ['webhookId'], flags: [] },
  'webhooks:create': { args: [], flags: ['url', 'job-id', 'watch', 'domain'] },
  'webhooks:update': { args: ['webhookId'], flags: ['url'] },
  'webhooks:enable': { args: ['webhookId'], flags: [] },
  'webhooks:disable': { args: ['webhookId'], flags: [] },
  'webhooks:delete': { args: ['webhookId'], flags: [] },
  // docs/specification.md#contract: `hub webhooks send URL [--payload FILE] [--event SCOPE] [--secret SECRET]`.
  'webhooks:send': { args: ['url'], flags: ['payload', 'event', 'secret'] },
};

t.test('the manifest holds every contract command with the specified arguments and flags', (t) => {
  requireBuilt();
  const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
    commands: Record<string, { args: Record<string, { required?: boolean }>; flags: Record<string, { multiple?: boolean }> }>;
  };
  for (const [id, expected] of Object.entries(SPEC_COMMANDS)) {
    const command = manifest.commands[id];
    if (!command) {
      t.fail(`${id} is missing`);
      continue;
    }
    t.same(Object.keys(command.args), expected.args, `${id} arguments`);
    if (!expected.optionalArgs) for (const arg of expected.args) t.equal(command.args[arg]?.required, true, `${id} <${arg}> is required`);
    for (const flag of expected.flags) t.ok(command.flags[flag], `${id} --${flag}`);
  }
  t.equal(manifest.commands['webhooks:create']?.flags.watch?.multiple, true, '--watch is repeatable');
  t.end();
});

t.test('each command has a --help option, and takes -h for it', async (t) => {
  requireBuilt();
  const help = (id: string, flag: string) => runBuiltCli([...id.split(':'), flag], {});
  const runs = await Promise.all(
    Object.keys(SPEC_COMMANDS).map(async (id) => ({ id, long: await help(id, '--help'), short: await help(id, '-h') })),
  );
  for (const { id, long, short } of runs) {
    t.equal(long.code, 0, id);
    t.match(long.stdout, `$ hub ${id.replace(':', ' ')}`, `${id} prints its usage`);
    t.same(short, long, `${id} -h is --help`);
  }
  const topic = await runBuiltCli(['webhooks', '-h'], {});
  t.equal(topic.code, 0);
  t.match(topic.stdout, /webhooks send/, 'the topic lists its commands');
});
