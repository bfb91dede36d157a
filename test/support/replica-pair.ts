import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Test } from 'tap';
import { modelList } from '../../testkit/provider-wire.js';
import { startRedisServer } from './redis-server.js';
import { serve, settledOver } from './served-cli.js';
import { testDir } from './test-dir.js';

/** A provider whose streamed completions send what the test writes to `streams[i]`, and never end on their own. */
export async function heldStreams(t: Test) {
  const streams: ServerResponse[] = [];
  const server = createServer((request, response) => {
    if (request.url?.endsWith('/models')) {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(modelList()));
      return;
    }
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      streams.push(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const stream of streams) stream.destroy();
    server.close();
  });
  return { streams, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

/** Two `hub serve` replicas on one real redis-server, both on the held provider, both settled. */
export async function twoReplicas(t: Test, env: Record<string, string> = {}) {
  const redis = await startRedisServer(t);
  const provider = await heldStreams(t);
  const dir = testDir(t);
  const runs = [0, 1].map((n) =>
    serve(t, {
      REDIS_URL: redis.url,
      LLM_API_KEY: 'sk-test-turns',
      LLM_BASE_URL: provider.baseURL,
      LLM_TIMEOUT_MS: '60000',
      EMOTIONS_FILE: join(dir, `replica-${n}.json`),
      DRIFT_INTERVAL_MS: '86400000',
      DEBUG: '0',
      ...env,
    }),
  );
  const addresses = await Promise.all(runs.map((run) => run.listening));
  for (const address of addresses) t.match(await settledOver(address, 20_000), { is_initialized: true });
  return { redis, provider, runs, addresses: addresses as [string, string] };
}
