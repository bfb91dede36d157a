import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import t from 'tap';
import Serve from '../../../src/cli/commands/serve.js';
import { serveWithoutOclif } from '../../../src/cli/start/serve-fast-path.js';
import { plainServeFlags } from '../../../src/cli/start/serve-flags.js';
import { ROOT, runBuiltCli } from '../../support/built-cli.js';
import { settledOver } from '../../support/served-cli.js';
import { testDir } from '../../support/test-dir.js';
import { untraced } from '../../../testkit/untraced.js';

t.test('plain `serve` with its own flags takes the fast path; anything else is left to oclif', async (t) => {
  t.same(plainServeFlags(['serve']), { supervise: false, supervised: false, standby: false });
  t.same(plainServeFlags(['serve', '--supervise']), { supervise: true, supervised: false, standby: false });
  t.same(plainServeFlags(['serve', '--standby', '--supervised']), { supervise: false, supervised: true, standby: true });
  for (const argv of [
    [],
    ['webhooks', 'ls'],
    ['serve', '--help'],
    ['serve', '-h'],
    ['serve', '--supervise', '--supervise'],
    ['serve', '--toString'],
    ['serve', 'extra'],
    ['serve', '--'],
    ['--help', 'serve'],
  ])
    t.equal(plainServeFlags(argv), undefined, argv.join(' ') || '(no arguments)');
  t.equal(await serveWithoutOclif(['webhooks', 'ls']), false, 'another command is not run');
});

t.test('the fast path knows every flag of the oclif command, and only those', async (t) => {
  // A flag added to the command alone would send every start with it through oclif; one removed
  // from it alone would still start on the fast path.
  const names = Object.keys(Serve.flags).sort();
  t.same(Object.keys(plainServeFlags(['serve']) ?? {}).sort(), names);
  for (const name of names) t.equal(plainServeFlags(['serve', `--${name}`])?.[name as keyof typeof Serve.flags], true, `--${name}`);
});

// The invariant the fast path's saving rests on (the `hub serve` start row of `npm run bench`).
t.test('a plain `hub serve` answers without ever loading oclif', async (t) => {
  const oclifLoaded = `data:text/javascript,import{createRequire}from'node:module';const r=createRequire('file:///');process.on('exit',()=>process.stderr.write('oclif loaded: '+Object.keys(r.cache).some((p)=>p.includes('@oclif'))+'\\n'))`;
  const child = spawn(...untraced(process.execPath, ['--import', oclifLoaded, join(ROOT, 'bin', 'run.js'), 'serve']), {
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', DEBUG: '0', EMOTIONS_FILE: join(testDir(t), 'emotions.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  const address = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /Server listening at (http:\/\/[\d.:]+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`exited before listening: ${stderr}`)));
  });
  t.equal((await fetch(`${address}/health`)).status, 200);
  // Settled, so the whole system has loaded and SIGTERM meets the graceful stop, which exits.
  t.match(await settledOver(address), { missing_llm_key: true });
  child.kill('SIGTERM');
  await once(child, 'close'); // its stderr read to the end
  t.match(stderr, 'oclif loaded: false');
});

t.test('help still comes from oclif', async (t) => {
  const { code, stdout } = await runBuiltCli(['serve', '--help'], {});
  t.equal(code, 0);
  t.match(stdout, /USAGE\n\s+\$ hub serve \[--supervise\]/);
});

t.test('a failed start reads the same on either path', async (t) => {
  const fast = await runBuiltCli(['serve'], { PORT: 'http' });
  // `--` ends the flags, which oclif accepts and the fast path leaves to it.
  const throughOclif = await runBuiltCli(['serve', '--'], { PORT: 'http' });
  t.match(fast, { code: 1, stdout: '', stderr: 'Error: PORT must be a whole number from 0 to 65535, got "http"' });
  t.same(throughOclif, fast);
});
