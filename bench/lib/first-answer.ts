import { spawn, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '../../testkit/free-port.js';
import { performance } from 'node:perf_hooks';

/**
 * Median time from spawning a server process to its first 200 on GET /health (a restart's
 * downtime), polling every 2 ms, over `runs` runs after one untimed run that warms the file cache.
 */
export async function medianFirstAnswerMs(command: string, args: readonly string[], options: SpawnOptions, runs = 7): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(command, args, { ...options, env: { ...options.env, PORT: String(port) }, stdio: 'ignore' });
    const exited = once(child, 'exit');
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode} before answering`);
      const answered = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (answered) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    if (run > 0) times.push(performance.now() - started);
    child.kill('SIGTERM');
    await exited;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}
