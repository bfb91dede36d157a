import { spawn } from 'node:child_process';
import { ERRORS, errorMessage } from '../../errors/catalogue.js';
import type { WebhookContext } from '../../webhooks/context.js';
import { WebhookReply } from '../../webhooks/handler.js';
import type { WebhookPayload } from '../../webhooks/payload.js';

/**
 * The variables a Hub Job triggered by a webhook gets (huggingface_hub's `create_webhook(job_id=…)`):
 * the payload as it came, the repository's id (`namespace/name`) and type, the webhook's id, its secret.
 */
export function jobEnvironment(payload: WebhookPayload, context: WebhookContext, secret: string | undefined): Record<string, string> {
  return {
    WEBHOOK_PAYLOAD: context.rawBody.toString('utf8'),
    WEBHOOK_REPO_ID: payload.repo.name,
    WEBHOOK_REPO_TYPE: payload.repo.type,
    WEBHOOK_ID: payload.webhook.id,
    ...(secret === undefined ? {} : { WEBHOOK_SECRET: secret }),
  };
}

/**
 * Runs `command` in a shell for one delivery, with the Job variables; its output goes to this
 * process's. Exit 0 answers 200; another status, a signal or a command that cannot start, a 500.
 */
export function execDelivery(command: string, variables: Record<string, string>, env: NodeJS.ProcessEnv): Promise<WebhookReply> {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, env: { ...env, ...variables }, stdio: ['ignore', 'inherit', 'inherit'] });
    const fail = (why: string): void =>
      resolve(
        new WebhookReply(ERRORS.WEBHOOK_EXEC_FAILED.statusCode, JSON.stringify({ error: errorMessage('WEBHOOK_EXEC_FAILED', [why]) })),
      );
    child.on('error', (error) => fail(error.message));
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(new WebhookReply(200, JSON.stringify({ exitCode: 0 })));
      else fail(signal === null ? `it exited with status ${code}` : `it was ended by ${signal}`);
    });
  });
}
