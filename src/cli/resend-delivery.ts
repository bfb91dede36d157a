import { FORWARD_TIMEOUT_MS, deliveryHeaders } from './listen/forward-delivery.js';
import { ANSWER_EXCERPT_CHARS, deliveredText, type JournalEntry } from '../webhooks/journal/entry.js';
import { redactSecrets } from '../webhooks/inspector/redact.js';
import { type ReplayRecord, verdictOf } from '../webhooks/recovery/replay-record.js';
import { WEBHOOK_SECRET_HEADER } from '../webhooks/secret.js';
import { postDelivery, type TestDeliveryResponse } from '../webhooks/send-test-delivery.js';
import { urlWithoutQuery } from '../runtime/url-credentials.js';

export interface ResendOptions {
  readonly secret: string | undefined;
  readonly fetch?: typeof fetch | undefined;
  readonly by: ReplayRecord['by'];
  readonly now?: () => Date;
}

/** What a delivery sent again got: the receiver's answer, or why none came. */
export type ResendOutcome = { readonly response: TestDeliveryResponse } | { readonly cause: string };

/** Why a request got no answer, in its most telling words (fetch wraps them in "fetch failed"). */
export function noAnswerCause(error: unknown): string {
  return (error as Error & { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
}

/** The journaled delivery as it came (body bytes, headers, `Webhook-Id`), with `secret` in `X-Webhook-Secret`. */
function resendRequest(entry: JournalEntry, secret: string | undefined): { body: string; headers: Record<string, string> } {
  return {
    body: deliveredText(entry) ?? '',
    headers: { ...deliveryHeaders(entry.headers), ...(secret === undefined ? {} : { [WEBHOOK_SECRET_HEADER]: secret }) },
  };
}

/** The replay's record of a delivery sent again to `to`, `ms` after it was sent, with its verdict against the delivery's own answer. */
function replayRecord(
  entry: JournalEntry,
  to: URL,
  outcome: ResendOutcome,
  ms: number,
  options: Pick<ResendOptions, 'secret' | 'by' | 'now'>,
): ReplayRecord {
  const status = 'response' in outcome ? outcome.response.status : null;
  const { body } = 'response' in outcome ? outcome.response : { body: undefined };
  const answer = 'cause' in outcome ? `No answer: ${outcome.cause}` : typeof body === 'string' ? body : JSON.stringify(body);
  return {
    webhookId: entry.webhookId,
    receivedAt: entry.receivedAt,
    at: (options.now ?? (() => new Date()))().toISOString(),
    to: urlWithoutQuery(to),
    status,
    ms: Math.round(ms * 10) / 10,
    // A receiver that echoes what it was sent must not put the secret in the replay log.
    ...(answer === ''
      ? {}
      : { answer: redactSecrets(answer, options.secret === undefined ? [] : [options.secret]).slice(0, ANSWER_EXCERPT_CHARS) }),
    verdict: verdictOf(entry.status, status),
    by: options.by,
  };
}

/**
 * Sends a journaled delivery to `to` again, as it came, and returns what it got and the replay's
 * record of it (the answer or why there was none, and the verdict). Never throws for an answer that
 * did not come.
 */
export async function resendDelivery(
  entry: JournalEntry,
  to: URL,
  options: ResendOptions,
): Promise<{ readonly outcome: ResendOutcome; readonly record: ReplayRecord }> {
  const { body, headers } = resendRequest(entry, options.secret);
  const started = performance.now();
  let outcome: ResendOutcome;
  try {
    outcome = {
      response: await postDelivery(to, body, headers, { fetch: options.fetch, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) }),
    };
  } catch (error) {
    outcome = { cause: noAnswerCause(error) };
  }
  return { outcome, record: replayRecord(entry, to, outcome, performance.now() - started, options) };
}
