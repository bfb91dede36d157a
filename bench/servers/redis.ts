// Debian's redis-server for the replica rows, without persistence, in a directory of its own; this
// process reports its URL and ends it (and the directory) on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { reportListening } from '../lib/child.js';

// A port the OS hands out, released for redis-server to bind.
const probe = createServer().listen(0, '127.0.0.1');
await new Promise((resolve) => probe.once('listening', resolve));
const { port } = probe.address() as { port: number };
await new Promise((resolve) => probe.close(resolve));

const dir = mkdtempSync(join(tmpdir(), 'emotion-hub-bench-redis-'));
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
redis.once('exit', (code) => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(code === null ? 0 : 1);
});
// Before the URL goes out: the bench may stop this process the moment it has it.
process.once('SIGTERM', () => redis.kill('SIGTERM'));
for await (const line of createInterface({ input: redis.stdout })) {
  if (line.includes('Ready to accept connections')) break;
}
redis.stdout.resume();
reportListening(`redis://127.0.0.1:${port}/0`);
