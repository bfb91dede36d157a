import http from 'node:http';
import https from 'node:https';
import { ERRORS, errorMessage } from '../../errors/catalogue.js';
import type { WebhookContext } from '../../webhooks/context.js';
import { WebhookReply } from '../../webhooks/handler.js';
import { WEBHOOK_SECRET_HEADER } from '../../webhooks/secret.js';

/** Headers about one connection, not about the delivery: never passed on. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'te',
  'upgrade',
  'expect',
  'proxy-connection',
]);

/** A delivery's headers without those about the connection it came on, to send it on another. */
export function deliveryHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

/** How long the target may take: the Hub itself gives up on a receiver after about this long. */
export const FORWARD_TIMEOUT_MS = 30_000;

// node:http with kept-alive connections, not the global fetch: measured on loopback, fetch from inside
// a request handler added about 8 ms per delivery at the median, node:http about 1.5 ms.
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/**
 * Passes one delivery on to `target` as the Hub sent it: the same body bytes, the Hub's headers
 * (`Webhook-Id` and the rest) and its `X-Webhook-Secret`; answers with the target's status, type and
 * body. A target that cannot be reached, or does not answer in time, is a 502, so that the Hub retries.
 */
export async function forwardDelivery(target: URL, context: WebhookContext, secret: string): Promise<WebhookReply> {
  const headers = {
    ...deliveryHeaders(context.headers),
    [WEBHOOK_SECRET_HEADER]: secret,
    'content-length': String(context.rawBody.byteLength),
  };
  try {
    const { status, type, body } = await post(target, headers, context.rawBody);
    return new WebhookReply(status, body, { 'content-type': type ?? 'application/octet-stream' });
  } catch (error) {
    return new WebhookReply(
      ERRORS.WEBHOOK_FORWARD_FAILED.statusCode,
      JSON.stringify({
        error: errorMessage('WEBHOOK_FORWARD_FAILED', [`${target.origin}${target.pathname}`, (error as Error).message]),
      }),
    );
  }
}

function post(
  target: URL,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; type: string | undefined; body: Buffer }> {
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const request = send(
      target,
      { method: 'POST', headers, agent: agents[target.protocol as keyof typeof agents], timeout: FORWARD_TIMEOUT_MS },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('aborted', () => reject(new Error('the connection closed before the answer ended')));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 502, type: response.headers['content-type'], body: Buffer.concat(chunks) }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${FORWARD_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}
