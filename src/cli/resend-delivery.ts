import { FORWARD_TIMEOUT_MS, deliveryHeaders } from './listen/forward-delivery.js';
import { ANSWER_EXCERPT_CHARS, deliveredText, type JournalEntry } from '../webhooks/journal/entry.js';
import { redactSecrets } from '../webhooks/inspector/redact.js';
import { type ReplayRecord, verdictOf } from '../webhooks/recovery/replay-record.js';
import { WEBHOOK_SECRET_HEADER } from '../webhooks/secret.js';
import { postDelivery } from '../webhooks/send-test-delivery.js';
import { urlWithoutQuery } from '../runtime/url-credentials.js';

export interface ResendOptions {
  readonly secret: string | undefined;
  readonly fetch?: typeof fetch | undefined;
  readonly by: ReplayRecord['by'];
  readonly now?: () => Date;
}

/**
 * Sends a journaled delivery to `to` again, as it came (body bytes, headers, `Webhook-Id`), with
 * `secret` in `X-Webhook-Secret`, and returns the replay's record: the answer or why there was none,
 * and the verdict against the delivery's own answer. Never throws for an answer that did not come.
 */
export async function resendDelivery(entry: JournalEntry, to: URL, options: ResendOptions): Promise<ReplayRecord> {
  const now = options.now ?? (() => new Date());
  const body = deliveredText(entry) ?? '';
  const headers = {
    ...deliveryHeaders(entry.headers),
    ...(options.secret === undefined ? {} : { [WEBHOOK_SECRET_HEADER]: options.secret }),
  };
  const started = performance.now();
  let status: number | null = null;
  let answer: string;
  try {
    const response = await postDelivery(to, body, headers, { fetch: options.fetch, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    status = response.status;
    answer = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  } catch (error) {
    const cause = (error as Error & { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    answer = `No answer: ${cause}`;
  }
  return {
    webhookId: entry.webhookId,
    receivedAt: entry.receivedAt,
    at: now().toISOString(),
    to: urlWithoutQuery(to),
    status,
    ms: Math.round((performance.now() - started) * 10) / 10,
    // A receiver that echoes what it was sent must not put the secret in the replay log.
    ...(answer === ''
      ? {}
      : { answer: redactSecrets(answer, options.secret === undefined ? [] : [options.secret]).slice(0, ANSWER_EXCERPT_CHARS) }),
    verdict: verdictOf(entry.status, status),
    by: options.by,
  };
}
