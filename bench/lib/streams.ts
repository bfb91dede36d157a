import { Agent, request } from 'node:http';

/** Streamed chats measured from the client's side: time to the first token of each, and tokens per second overall. */
export interface StreamFigures {
  /** Each finished stream's time from sending the request to its first `event: token`, in ms. */
  readonly firstTokenMs: number[];
  readonly tokensPerSecond: number;
  readonly streams: number;
  readonly errors: number;
}

/** The value at quantile q (0..1) of the numbers, sorted. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** One streamed chat: resolves with its time to first token and its token count, or rejects. */
function oneStream(url: URL, agent: Agent, body: string): Promise<{ firstTokenMs: number; tokens: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstTokenMs = -1;
    let tokens = 0;
    let done = false;
    const call = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`status ${response.statusCode}`));
          return;
        }
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          // Frames are counted by their event line; a frame split across chunks is counted when its line arrives whole.
          let at = chunk.indexOf('event: token');
          while (at !== -1) {
            if (firstTokenMs < 0) firstTokenMs = performance.now() - started;
            tokens += 1;
            at = chunk.indexOf('event: token', at + 1);
          }
          if (chunk.includes('event: done')) done = true;
        });
        response.on('end', () => (done && firstTokenMs >= 0 ? resolve({ firstTokenMs, tokens }) : reject(new Error('no done frame'))));
        response.on('error', reject);
      },
    );
    call.on('error', reject);
    call.end(body);
  });
}

/**
 * `concurrency` streamed chats at a time, each followed by the next, for `durationSeconds`. The
 * streams start `rampMs / concurrency` apart: started together, equal streams stay in step, every
 * first token lands in one burst, and the time to first token measures the burst, not the server.
 */
export async function measureStreams(
  url: string,
  concurrency: number,
  durationSeconds: number,
  body: string,
  rampMs = 0,
): Promise<StreamFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const firstTokenMs: number[] = [];
  let tokens = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + durationSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, index) => {
      await new Promise((resolve) => setTimeout(resolve, (index * rampMs) / concurrency));
      while (performance.now() < deadline) {
        try {
          const result = await oneStream(target, agent, body);
          firstTokenMs.push(result.firstTokenMs);
          tokens += result.tokens;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { firstTokenMs, tokensPerSecond: tokens / seconds, streams: firstTokenMs.length, errors };
}

/** Listeners on an event stream: each frame's arrival, as ms after the change it reports (its `last_updated`). */
export interface Listeners {
  /** Delays of every frame after the first, per change, across all listeners. */
  readonly delaysMs: number[];
  /** Frames received so far, the first ones included. */
  frames(): number;
  close(): void;
}

const LAST_UPDATED = '"last_updated":"';

/** Opens `count` listeners on `url` (GET /api/events) and resolves once each has its first frame. */
export async function openListeners(url: string, count: number): Promise<Listeners> {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const delaysMs: number[] = [];
  let frames = 0;
  const requests: ReturnType<typeof request>[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          let first = true;
          const call = request(url, { agent }, (response) => {
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              // The arrival time first, then as little work as can be: a thousand listeners share this process.
              const now = Date.now();
              let at = chunk.indexOf(LAST_UPDATED);
              while (at !== -1) {
                frames += 1;
                if (first) {
                  first = false;
                  resolve();
                } else {
                  const start = at + LAST_UPDATED.length;
                  delaysMs.push(now - Date.parse(chunk.slice(start, chunk.indexOf('"', start))));
                }
                at = chunk.indexOf(LAST_UPDATED, at + 1);
              }
            });
            response.on('error', () => undefined);
          });
          call.on('error', reject);
          call.end();
          requests.push(call);
        }),
    ),
  );
  return {
    delaysMs,
    frames: () => frames,
    close: () => {
      for (const call of requests) call.destroy();
      agent.destroy();
    },
  };
}
