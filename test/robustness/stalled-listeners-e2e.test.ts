import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import t from 'tap';
import { serve, settledOver } from '../support/served-cli.js';
import { eventually } from '../../testkit/eventually.js';
import { healthy, listeningProvider } from '../../testkit/provider-stand-in.js';

// Issue 38, "one bound for every long-lived stream": the built `hub serve` with 200 connections on
// each of its two lasting streams (/api/events and /api/chat/feed) that read the head and never
// read again, while the mood drifts every 5 ms. /health keeps answering, and SIGTERM ends the
// service cleanly: the shutdown cuts the streams instead of waiting for readers that never come.
const LISTENERS = 200;

/** A raw socket on `path` that reads the response's head, then never reads again. */
async function stalledListener(port: number, path: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
  await once(socket, 'data');
  socket.pause();
  return socket;
}

t.test(`${LISTENERS} listeners on each stream that never read: /health answers, SIGTERM ends the service cleanly`, async (t) => {
  const provider = await listeningProvider(t, healthy());
  const run = serve(t, { LLM_API_KEY: 'sk-test-stalled', LLM_BASE_URL: provider.baseURL, DRIFT_INTERVAL_MS: '5' });
  const address = await run.listening;
  await settledOver(address);
  const port = Number(new URL(address).port);
  const sockets: Socket[] = [];
  for (const path of ['/api/events', '/api/chat/feed']) {
    for (let i = 0; i < LISTENERS; i += 1) sockets.push(await stalledListener(port, path));
  }
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
  });
  // The mood keeps changing for every listener: frames pile up for those that do not read.
  const health = await eventually('/health while 400 listeners stall', async () => {
    const response = await fetch(`${address}/health`);
    return response.status === 200 ? response : undefined;
  });
  t.equal(health.status, 200, '/health answers');
  const asked = Date.now();
  run.kill('SIGTERM');
  t.equal(await run.exited, 0, 'SIGTERM: exit 0');
  t.comment(`ended ${Date.now() - asked} ms after SIGTERM with ${sockets.length} listeners that never read (the issue asks within 1 s)`);
  t.ok(
    run.lines.some((line) => line.msg === 'the chat service stopped'),
    'a clean stop, not a kill',
  );
});
