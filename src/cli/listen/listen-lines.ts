import type { WebhookRefusal } from '../../webhooks/options.js';

/** Why a sender gets each refusal, when the answer's own words do not say what to do. */
const HINTS: Readonly<Record<number, string>> = {
  401: 'send it with this listen’s secret in X-Webhook-Secret',
  403: 'the X-Webhook-Secret is not this listen’s secret',
};

/** The line `listen` prints per refused delivery: time, what was asked, the status and the reason. */
export function refusedLine(refusal: WebhookRefusal): string {
  const time = refusal.at.toISOString().slice(11, 19);
  const hint = HINTS[refusal.statusCode];
  return `${time}  refused  ${refusal.method} ${refusal.route}  → ${refusal.statusCode}  ${refusal.error}${hint ? ` (${hint})` : ''}`;
}

/**
 * A ready-to-run sample delivery to the local receiver. The temporary secret goes into it only when
 * the output is a terminal: a log file or a CI job's output keeps no secret.
 */
export function sendLine(bin: string, localUrl: string, secret: string, terminal: boolean): string {
  const command = `${bin} webhooks send ${localUrl}`;
  return terminal
    ? `Try it: ${command} --secret ${secret}`
    : `Try it: ${command} --secret <this listen's secret> (shown only when the output is a terminal)`;
}
