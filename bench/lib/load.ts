import autocannon from 'autocannon';

/** One measured HTTP load: throughput, latency and anything that went wrong. */
export interface LoadFigures {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  readonly errors: number;
  readonly non2xx: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly connections?: number;
  readonly durationSeconds: number;
  /** Stop after this many requests instead of after the duration. */
  readonly amount?: number;
}

/** Runs autocannon against one URL; the caller keeps the server in another process. */
export async function measureLoad(options: LoadOptions): Promise<LoadFigures> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    body: options.body,
    headers: options.headers,
    connections: options.connections ?? 50,
    duration: options.durationSeconds,
    amount: options.amount,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
