import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { ROOT } from '../support/built-cli.js';
import { testDir } from '../support/test-dir.js';
import { untraced } from '../../testkit/untraced.js';

// A build's environment must never ship. oclif writes each command's static properties into
// oclif.manifest.json; a static holding process.env once put the builder's tokens there, and the
// manifest is in the package's `files` and in the Space image.
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// Made at run time, so that no file of the repository holds them.
const marker = (prefix: string) => prefix + randomBytes(12).toString('hex');
const MARKERS = { HF_TOKEN: marker('hf_'), LLM_API_KEY: marker('sk-'), WEBHOOK_SECRET: marker('whsec_') };

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesBelow(path) : entry.isFile() ? [path] : [];
  });
}

function markersIn(files: string[], base: string): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'latin1');
    return Object.entries(MARKERS)
      .filter(([, marker]) => text.includes(marker))
      .map(([name]) => `${name} in ${relative(base, file)}`);
  });
}

t.test('a build with secrets in its environment leaves none in the package or the image context', async (t) => {
  // The package's files as a checkout holds them, built in a folder of its own (the repository's
  // manifest is left alone) with the marker secrets in the environment, as a developer's shell has.
  const build = testDir(t, {});
  for (const path of ['package.json', '.dockerignore', 'Dockerfile', 'bin', 'dist', 'public', 'space', 'README.md', 'LICENSE']) {
    cpSync(join(ROOT, path), join(build, path), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(build, 'node_modules'));
  const env = { ...process.env, ...MARKERS };
  await run(...untraced(process.execPath, [join(ROOT, 'node_modules', 'oclif', 'bin', 'run.js'), 'manifest']), { cwd: build, env });
  const manifest = readFileSync(join(build, 'oclif.manifest.json'), 'utf8');
  t.match(manifest, /"webhooks:ls"/, 'the manifest was written with the commands');
  t.notMatch(manifest, /"PATH"/, 'no environment variable at all in the manifest');

  const { stdout } = await run(...untraced(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', build]), { cwd: build, env });
  const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  t.ok(
    packed.files.some((file) => file.path === 'oclif.manifest.json'),
    'the manifest is packed',
  );
  const unpacked = join(build, 'unpacked');
  await run('mkdir', [unpacked]);
  await run('tar', ['-xzf', join(build, packed.filename), '-C', unpacked]);
  t.same(markersIn(filesBelow(unpacked), build), [], 'no marker secret in any packed file');

  // `docker build .` sends every file .dockerignore lets through.
  const ignored = readFileSync(join(build, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim());
  for (const local of ['oclif.manifest.json', 'emotions.json', '.env', 'node_modules', 'dist-test']) {
    t.ok(ignored.includes(local), `.dockerignore leaves out ${local}`);
  }
  const context = filesBelow(build).filter((file) => {
    const top = relative(build, file).split('/')[0] ?? '';
    return !ignored.includes(top) && !top.endsWith('.tgz') && top !== 'unpacked';
  });
  t.same(markersIn(context, build), [], 'no marker secret in the build context');
});
