import { WebhookPayloadError } from './errors.js';
import type { WebhookPayload, WebhookRepoType } from './payload.js';
import { verifyWebhookSecret } from './secret.js';
import { parseWebhookPayload } from './validate-payload.js';

/** What a job started by a webhook receives, read from its environment. */
export interface JobWebhook {
  readonly payload: WebhookPayload;
  /** `WEBHOOK_REPO_ID`, else the payload's `repo.name`. */
  readonly repoId: string;
  /** `WEBHOOK_REPO_TYPE`, else the payload's `repo.type`. */
  readonly repoType: WebhookRepoType;
  /** `WEBHOOK_SECRET`, set when the webhook has a secret. */
  readonly secret: string | undefined;
}

export interface ReadJobWebhookOptions {
  /** Defaults to `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** When given, `WEBHOOK_SECRET` must equal it: missing is a 401 error, different a 403, as on the server. */
  readonly webhookSecret?: string;
}

const REPO_TYPES: readonly string[] = ['model', 'dataset', 'space'] satisfies WebhookRepoType[];

/**
 * Reads and validates the payload of a webhook that triggers a job instead of
 * a URL (the Hub passes it in `WEBHOOK_PAYLOAD`). Throws the server's errors:
 * a 400 {@link WebhookPayloadError} when it is absent or not JSON, a 422 when
 * it is not a Hub payload.
 */
export function readJobWebhook(options: ReadJobWebhookOptions = {}): JobWebhook {
  const env = options.env ?? process.env;
  const text = env.WEBHOOK_PAYLOAD;
  if (text === undefined || text.trim() === '') {
    throw new WebhookPayloadError('WEBHOOK_PAYLOAD_MISSING');
  }
  if (options.webhookSecret !== undefined) verifyWebhookSecret(env.WEBHOOK_SECRET || undefined, options.webhookSecret);
  const payload = parseWebhookPayload(text);
  const repoType = env.WEBHOOK_REPO_TYPE || payload.repo.type;
  if (!REPO_TYPES.includes(repoType)) {
    throw new WebhookPayloadError('WEBHOOK_REPO_TYPE_INVALID', REPO_TYPES.join(', '), JSON.stringify(repoType));
  }
  return {
    payload,
    repoId: env.WEBHOOK_REPO_ID || payload.repo.name,
    repoType: repoType as WebhookRepoType,
    secret: env.WEBHOOK_SECRET || undefined,
  };
}
