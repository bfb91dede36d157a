import { ERRORS } from '../../errors/catalogue.js';
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

/**
 * Passes one delivery on to `target` as the Hub sent it: the same body bytes, the Hub's headers
 * (`Webhook-Id` and the rest) and its `X-Webhook-Secret`; answers with the target's status, type and
 * body. A target that cannot be reached, or does not answer in time, is a 502, so that the Hub retries.
 */
export async function forwardDelivery(
  target: URL,
  context: WebhookContext,
  secret: string,
  fetchImpl: typeof fetch = fetch,
): Promise<WebhookReply> {
  const headers = { ...deliveryHeaders(context.headers), [WEBHOOK_SECRET_HEADER]: secret };
  try {
    const response = await fetchImpl(target, {
      method: 'POST',
      headers,
      body: new Uint8Array(context.rawBody.buffer, context.rawBody.byteOffset, context.rawBody.byteLength) as Uint8Array<ArrayBuffer>,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    const body = Buffer.from(await response.arrayBuffer());
    return new WebhookReply(response.status, body, { 'content-type': response.headers.get('content-type') ?? 'application/octet-stream' });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    return new WebhookReply(
      ERRORS.WEBHOOK_FORWARD_FAILED.statusCode,
      JSON.stringify({ error: `${ERRORS.WEBHOOK_FORWARD_FAILED.message.slice(0, -1)}: ${target.origin}${target.pathname}: ${cause}` }),
    );
  }
}
