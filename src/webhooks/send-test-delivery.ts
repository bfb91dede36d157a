import { randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_HEADER } from './secret.js';

export interface TestDeliveryOptions {
  /** Sent in `X-Webhook-Secret`, as the Hub does when the webhook has a secret. */
  readonly secret?: string;
  /** The `Webhook-Id` header; a random Hub-like id by default. */
  readonly webhookId?: string;
  /** Extra or overriding headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch implementation (default the global one). */
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
}

export interface TestDeliveryResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, or the text when it is not JSON. */
  readonly body: unknown;
}

/**
 * POSTs `payload` (serialised as JSON) to a webhook route the way the Hub
 * delivers it, for tests and local trials:
 * `await sendTestDelivery('http://127.0.0.1:7860/webhooks/on_commit', payload, { secret })`.
 */
export async function sendTestDelivery(
  url: string | URL,
  payload: unknown,
  options: TestDeliveryOptions = {},
): Promise<TestDeliveryResponse> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': options.webhookId ?? randomBytes(12).toString('hex'),
    ...(options.secret === undefined ? {} : { [WEBHOOK_SECRET_HEADER]: options.secret }),
    ...options.headers,
  };
  return postDelivery(url, JSON.stringify(payload), headers, options);
}

/**
 * POSTs a delivery's body as it is with the given headers (`hub webhooks redeliver` sends a journaled
 * delivery again this way) and reads the answer back.
 */
export async function postDelivery(
  url: string | URL,
  body: string,
  headers: Readonly<Record<string, string>>,
  options: Pick<TestDeliveryOptions, 'fetch' | 'signal'> = {},
): Promise<TestDeliveryResponse> {
  const doFetch = options.fetch ?? fetch;
  const response = await doFetch(url, { method: 'POST', headers, body, signal: options.signal });
  const text = await response.text();
  let parsed: unknown = text;
  if (response.headers.get('content-type')?.includes('json')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Kept as text: the caller sees what the server actually sent.
    }
  }
  return { status: response.status, headers: response.headers, body: parsed };
}
