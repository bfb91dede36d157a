import { connect, type Socket } from 'node:net';
import { Agent, request } from 'node:http';
import { quantile } from './streams.js';

/** What a flood of unread pipelined requests did to a server. */
export interface FloodFigures {
  /** `GET /health` on a connection of its own, timed every `probeMs` while the flood lasted. */
  readonly healthMs: readonly number[];
  /** Probes that got no answer before the flood ended. */
  readonly unanswered: number;
  /** How long the flood lasted. */
  readonly seconds: number;
}

/** One `GET /health` on a fresh connection: its time, or undefined when it failed or took past `timeoutMs`. */
function probe(url: string, agent: Agent, timeoutMs: number): Promise<number | undefined> {
  const started = performance.now();
  return new Promise((resolve) => {
    const call = request(`${url}/health`, { agent, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode === 200 ? performance.now() - started : undefined));
    });
    call.on('timeout', () => call.destroy());
    call.on('error', () => resolve(undefined));
    call.end();
  });
}

/**
 * `connections` raw sockets each write `requests` pipelined `GET <path>` at once and never read an
 * answer, for `seconds`, while `GET /health` is timed on a connection of its own every `probeMs`.
 * Then `during()` is called (the server's memory, say) and every socket is destroyed.
 */
export async function pipelinedFlood<T>(
  url: string,
  options: { connections: number; requests: number; path: string; seconds: number; probeMs: number },
  during: () => Promise<T>,
): Promise<FloodFigures & { readonly during: T }> {
  const { hostname, port } = new URL(url);
  const pipeline = `GET ${options.path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`.repeat(options.requests);
  const sockets: Socket[] = [];
  for (let i = 0; i < options.connections; i += 1) {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.on('error', () => undefined);
    socket.pause();
    socket.write(pipeline);
    sockets.push(socket);
  }
  const agent = new Agent({ keepAlive: false });
  const healthMs: number[] = [];
  let unanswered = 0;
  const until = performance.now() + options.seconds * 1000;
  while (performance.now() < until) {
    const next = performance.now() + options.probeMs;
    const ms = await probe(url, agent, options.seconds * 1000);
    if (ms === undefined) unanswered += 1;
    else healthMs.push(ms);
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const figures = await during();
  for (const socket of sockets) socket.destroy();
  agent.destroy();
  return { healthMs, unanswered, seconds: options.seconds, during: figures };
}

/** A flood's figures in a table cell. */
export function floodCell(figures: FloodFigures, rssMb: number, heapMb: number): string {
  const max = Math.max(0, ...figures.healthMs);
  return (
    `${signed(rssMb)} MB RSS (heap ${signed(heapMb)} MB); /health ${figures.healthMs.length ? `p50 ${quantile([...figures.healthMs], 0.5).toFixed(0)} ms, max ${max.toFixed(0)} ms` : 'never answered'}` +
    `${figures.unanswered ? `, ${figures.unanswered} unanswered in ${figures.seconds} s` : ''}`
  );
}

/** A growth in whole MB with its sign: +12, -1. */
function signed(mb: number): string {
  const whole = Math.round(mb);
  return whole < 0 ? String(whole) : `+${whole}`;
}
