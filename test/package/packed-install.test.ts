import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import t from 'tap';
import { ROOT, requireBuilt } from '../support/built-cli.js';
import { untraced } from '../../testkit/untraced.js';

// What the Dockerfile does, without Docker: pack the package as npm would publish it (dist/ as
// built, no second build), install it with production dependencies only into an empty folder
// through space/package.json, then run the installed `hub serve` and import the installed package.
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

t.test('the packed tarball installs with production dependencies, serves /health and imports', async (t) => {
  requireBuilt();
  // Outside the repository: from a folder inside it, Node would find the repository's own node_modules
  // (its development dependencies, localtunnel among them) when a module is missing from the install.
  const app = mkdtempSync(join(tmpdir(), 'emotion-hub-packed-'));
  t.teardown(() => rmSync(app, { recursive: true, force: true }));
  mkdirSync(join(app, 'data'));
  const { stdout } = await run(...untraced(npm, ['pack', '--ignore-scripts', '--pack-destination', app]), { cwd: ROOT });
  renameSync(join(app, stdout.trim().split('\n').at(-1)!), join(app, 'emotion-hub.tgz'));
  copyFileSync(join(ROOT, 'space', 'package.json'), join(app, 'package.json'));
  await run(...untraced(npm, ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline']), { cwd: app });

  const installed = join(app, 'node_modules');
  t.ok(existsSync(join(installed, 'emotion-hub', 'dist', 'webhooks', 'samples', 'repo.content.json')), 'the sample payloads are shipped');
  t.match(
    readFileSync(join(installed, 'emotion-hub', 'LICENSE'), 'utf8'),
    /^MIT License\n[\s\S]*Permission is hereby granted/,
    'the MIT license is shipped',
  );
  for (const dev of ['tap', 'nock', 'typescript', 'oclif', '@oclif/test', 'playwright-core'])
    t.notOk(existsSync(join(installed, dev)), `no ${dev}`);
  // The tunnel client is an optional peer dependency: a consumer who never shares gets no axios at all.
  t.notOk(existsSync(join(installed, 'localtunnel')), 'no localtunnel');
  t.notOk(existsSync(join(installed, 'axios')), 'no axios');

  const child = spawn(...untraced(join(installed, '.bin', 'hub'), ['serve']), {
    cwd: app,
    // The image's environment, on loopback (the 0.0.0.0 rule of a Space is tested in listen-host.test.ts).
    env: {
      PATH: process.env.PATH,
      HOME: app,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      EMOTIONS_FILE: join(app, 'data', 'emotions.json'),
      DEBUG: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => void child.kill());
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const address = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (listening) resolve(listening[1]!);
    });
    child.on('exit', (code) => reject(new Error(`hub serve exited with ${code}: ${stderr}`)));
  });
  const health = await fetch(`${address}/health`);
  t.equal(health.status, 200);
  t.match(await health.json(), { status: 'healthy' });
  const page = await fetch(`${address}/`);
  t.equal(page.status, 200, 'the page and its assets are in the package');

  const imported = await run(
    ...untraced(process.execPath, [
      '--input-type=module',
      '-e',
      "for (const entry of ['emotion-hub', 'emotion-hub/webhooks', 'emotion-hub/hub', 'emotion-hub/chat']) console.log(entry, Object.keys(await import(entry)).length > 0)",
    ]),
    { cwd: app },
  );
  t.equal(imported.stdout, 'emotion-hub true\nemotion-hub/webhooks true\nemotion-hub/hub true\nemotion-hub/chat true\n');

  // share: true without localtunnel says what to install, and the local server serves on.
  const shared = await run(
    ...untraced(process.execPath, [
      '--input-type=module',
      '-e',
      "const { WebhooksServer } = await import('emotion-hub/webhooks'); const s = new WebhooksServer({ port: 0, share: true, logger: false, print: () => {}, env: { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' } }); s.addWebhook('/x', () => 1); await s.launch().catch((e) => console.log(e.name, e.message)); console.log((await fetch(s.url + '/')).status); await s.close();",
    ]),
    { cwd: app },
  );
  t.match(shared.stdout, /^WebhookTunnelError .*npm install localtunnel@2\.0\.2.*\n200\n$/);
});

t.test('the Dockerfile runs that same install, as a Docker Space expects', (t) => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  t.match(final, /PORT=7860/, 'port 7860, the Space default');
  t.match(final, /EXPOSE 7860/);
  t.match(final, /HOST=0\.0\.0\.0/, 'reachable by the Space proxy');
  t.match(final, /\nUSER 1000\n/, 'the user id Spaces run as');
  t.match(final, /EMOTIONS_FILE=\/data\/emotions\.json/);
  t.match(final, /mkdir -p \/data [^\n]*&& chown 1000:1000 \/data/, 'a path that user can write');
  t.match(final, /COPY [^\n]*space\/package\.json \.\//, 'the manifest this test installs from');
  t.match(final, /npm install --omit=dev/, 'production dependencies only');
  t.match(final, /CMD \["node_modules\/\.bin\/hub", "serve", "--supervise"\]/);
  t.match(dockerfile, /npm pack --ignore-scripts/, 'the same pack as this test');
  t.end();
});
