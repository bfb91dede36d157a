import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { WATCHED_TYPES, WEBHOOK_DOMAINS, type WatchedItem, type WatchedType } from '../hub/types.js';
import { CliError, ExitCode } from './exit-codes.js';

// Arguments and flags shared by the webhook commands, and their parsing into library input.

export const webhookIdArg = Args.string({ required: true, description: 'The webhook id (see `hub webhooks ls`).' });

const validTypes = `Valid types: ${WATCHED_TYPES.join(', ')}.`;

const watchOptions = {
  multiple: true,
  multipleNonGreedy: true,
  helpValue: 'type:name',
  description: `An item to watch, as type:name (e.g. model:gpt2, user:julien-c). Repeatable. ${validTypes}`,
} as const;

export const webhookFlags = {
  url: Flags.string({ description: 'URL the hub POSTs payloads to.' }),
  watch: Flags.string({ ...watchOptions, description: `${watchOptions.description} Replaces the whole watched list.` }),
  domain: Flags.string({
    multiple: true,
    multipleNonGreedy: true,
    options: [...WEBHOOK_DOMAINS],
    description: 'Domain to watch: repo or discussion. Repeatable. Default (create): all domains.',
  }),
  secret: Flags.string({ description: 'Shared secret the hub sends in the X-Webhook-Secret header (printable ASCII).' }),
};

/** create needs at least one --watch. */
export const requiredWatchFlag = Flags.string({ ...watchOptions, required: true });

/** `type:name` values, split on the first colon; a malformed one is a usage error naming the valid types. */
export function parseWatch(values: readonly string[]): WatchedItem[] {
  return values.map((value) => {
    const colon = value.indexOf(':');
    const type = value.slice(0, colon);
    const name = value.slice(colon + 1);
    if (colon < 0 || type === '' || name.trim() === '') {
      throw new CliError(`Invalid --watch value "${value}": expected type:name (e.g. model:gpt2). ${validTypes}`, ExitCode.usage);
    }
    if (!(WATCHED_TYPES as readonly string[]).includes(type)) {
      throw new CliError(`Invalid --watch type "${type}" in "${value}". ${validTypes}`, ExitCode.usage);
    }
    return { type: type as WatchedType, name };
  });
}

/** `--url` or `--job-id`: exactly one. */
export function targetOf(flags: { url?: string | undefined; 'job-id'?: string | undefined }): { url: string } | { jobId: string } {
  const { url, 'job-id': jobId } = flags;
  if (url !== undefined && jobId !== undefined) throw new CliError('Provide either --url or --job-id, not both.', ExitCode.usage);
  if (url !== undefined) return { url };
  if (jobId !== undefined) return { jobId };
  throw new CliError('Provide either --url (the hub POSTs payloads there) or --job-id (the hub triggers that job).', ExitCode.usage);
}
