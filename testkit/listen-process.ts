// `hub webhooks listen` from the built CLI as a child process, against the Hub stand-in: for the
// end-to-end tests and the bench, which both need its lines, its webhook and its signals.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { ROOT } from './package-root.js';
import { eventually, settlesWithin } from './eventually.js';
import { untraced } from './untraced.js';

export interface ListenProcess {
  readonly child: ChildProcess;
  /** Every stdout line so far. */
  readonly lines: string[];
  stderr(): string;
  /** Resolves with the id once `Created webhook <id>` is printed. */
  created(): Promise<string>;
  /** Resolves with the exit code (or the signal's name); rejects if it has not exited within 30 s. */
  exited(): Promise<number | string>;
}

export function startListen(args: string[], env: NodeJS.ProcessEnv): ListenProcess {
  const child = spawn(...untraced(process.execPath, ['bin/run.js', 'webhooks', 'listen', ...args]), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exit = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  let done = false;
  void exit.then(() => (done = true));
  return {
    child,
    lines,
    stderr: () => stderr,
    created: () =>
      eventually(
        'listen to create its webhook',
        () => {
          if (done) throw new Error(`listen exited: ${stderr}`);
          return lines.map((line) => /^Created webhook ([0-9a-f]+)$/.exec(line)?.[1]).find(Boolean);
        },
        { timeoutMs: 30_000 },
      ),
    exited: () => settlesWithin('listen to exit', exit, 30_000),
  };
}

export interface ReceivedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A forward target on 127.0.0.1 that records each request and answers `status()` with a small JSON body. */
export async function startTarget(status: () => number = () => 200): Promise<{
  url: string;
  received: ReceivedRequest[];
  server: Server;
  close(): Promise<void>;
}> {
  const received: ReceivedRequest[] = [];
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      const code = status();
      response.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify({ target: code }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
