import { spawn, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';

/**
 * Median wall time of `runs` runs of a command, after one untimed run that
 * warms the file cache. Asynchronous, so a stand-in server in this process
 * keeps answering the command.
 */
export async function medianRunMs(command: string, args: readonly string[], options: SpawnOptions, runs = 11): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const started = performance.now();
    const child = spawn(command, args, { ...options, stdio: 'ignore' });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${String(code)}`);
    if (run > 0) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}
