import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { HubFetch, HubFetchResponse } from '../../hub/hub-options.js';

function headerReader(message: IncomingMessage): HubFetchResponse['headers'] {
  return {
    get(name) {
      const value = message.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * The fetch the CLI hands the hub calls: node:http(s). Node's global fetch loads and compiles undici
 * at its first call, which weighs more than everything else `hub webhooks ls` does (docs/performance.md).
 */
export const nodeFetch: HubFetch = (url, init) => {
  // Looked up at each call, on the module objects: interceptors (nock in the tests) replace them there.
  const send = url.startsWith('https:') ? https.request : http.request;
  return new Promise<HubFetchResponse>((resolve, reject) => {
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
};
