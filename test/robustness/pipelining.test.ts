import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import t from 'tap';
import { MAX_IN_FLIGHT_PER_CONNECTION } from '../../src/http/pipelining.js';
import { eventually } from '../../testkit/eventually.js';
import { startRealService } from '../support/real-service.js';
import { mockProviderHttp } from '../../testkit/provider-nock.js';

// Issue 23: connections that pipeline asset requests and never read the answers must not stall
// the service, open a file per request, grow its memory or flood its log.
mockProviderHttp(t, '127.0.0.1');

const CONNECTIONS = 20;
const REQUESTS = 1000;

const openFiles = (): number => readdirSync('/proc/self/fd').length;

t.test(`${CONNECTIONS} connections pipelining ${REQUESTS} asset requests each, never reading`, async (t) => {
  const started = await startRealService(t, {});
  const { hostname, port } = new URL(started.service.address);
  // Warm up: the first request of each kind loads what it needs.
  t.equal((await started.get('/assets/app.js')).status, 200);
  t.equal((await started.get('/health')).status, 200);
  const filesBefore = openFiles();
  const rssBefore = process.memoryUsage().rss;
  const linesBefore = started.logs.length;

  const request = `GET /assets/app.js HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`.repeat(REQUESTS);
  const sockets: Socket[] = [];
  for (let i = 0; i < CONNECTIONS; i += 1) {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.on('error', () => undefined);
    // Never read: the answers pile up in the server until it stops reading the requests.
    socket.pause();
    socket.write(request);
    sockets.push(socket);
  }
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
  });
  // Let the server take in what it will of the pipelines.
  await eventually('the pipelines to be written', () => sockets.every((socket) => socket.writableLength === 0 || socket.destroyed), {
    timeoutMs: 30_000,
  });

  const latencies: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const before = performance.now();
    const health = await fetch(`${started.service.address}/health`);
    t.equal(health.status, 200);
    latencies.push(performance.now() - before);
  }
  const filesDuring = openFiles() - filesBefore;
  const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1e6;
  const errorLines = started.logs.slice(linesBefore).filter((line) => Number(line.level) >= 50);
  const logBytes = JSON.stringify(started.logs.slice(linesBefore)).length;
  t.comment(
    `health ${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms; files +${filesDuring}; rss +${rssGrowthMb.toFixed(0)} MB; ` +
      `${errorLines.length} error lines; ${(logBytes / 1e6).toFixed(2)} MB of log`,
  );
  // Generous bounds: the machine is shared. Before the fix: 1.5 to 4.4 s, 2,000 files, +250 MB.
  const median = [...latencies].sort((a, b) => a - b)[2]!;
  t.ok(median < 1000, '/health answers within a second');
  t.ok(Math.max(...latencies) < 3000, 'every time, even on a busy machine');
  t.ok(filesDuring < 100, 'no file opened per request');
  t.ok(rssGrowthMb < 200, 'memory stays within bounds');
  t.equal(errorLines.length, 0, 'no error logged');
  t.ok(logBytes < 5e6, 'no log flood');
});

t.test('a client that pipelines a few requests gets every answer', async (t) => {
  const started = await startRealService(t, {});
  const { hostname, port } = new URL(started.service.address);
  const socket = connect({ host: hostname, port: Number(port) });
  t.teardown(() => socket.destroy());
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.write(`GET /health HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`.repeat(MAX_IN_FLIGHT_PER_CONNECTION));
  await eventually('every answer', () =>
    received.match(/HTTP\/1\.1 200 OK/g)?.length === MAX_IN_FLIGHT_PER_CONNECTION ? true : undefined,
  );
  t.notOk(socket.destroyed, 'the connection stays open');
});
