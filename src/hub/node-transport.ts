import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';

/** What a hub call reads of an answer: a `fetch` Response has it, and so has nodeTransport's. */
export interface HubResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface HubTransportRequest {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

function headerReader(message: IncomingMessage): HubResponse['headers'] {
  return {
    get(name) {
      const value = message.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * The default transport: node:http(s). Node's global fetch loads and compiles undici at its first
 * call, which weighs more than everything else `hub webhooks ls` does; `fetch` stays injectable.
 */
export function nodeTransport(url: string, init: HubTransportRequest): Promise<HubResponse> {
  // Looked up at each call, on the module objects: interceptors (nock in the tests) replace them there.
  const send = url.startsWith('https:') ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const outgoing = send(url, { method: init.method, headers: init.headers, signal: init.signal }, (message) => {
      const chunks: Buffer[] = [];
      const body = new Promise<string>((resolveBody, rejectBody) => {
        message.on('data', (chunk: Buffer) => chunks.push(chunk));
        message.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
        message.on('error', rejectBody);
        message.on('aborted', () => rejectBody(new Error('the connection closed before the answer ended')));
      });
      // Read at once, so that no 'error' goes unhandled while the caller looks at the status.
      body.catch(() => undefined);
      const status = message.statusCode ?? 0;
      resolve({ status, ok: status >= 200 && status < 300, headers: headerReader(message), text: () => body });
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}
