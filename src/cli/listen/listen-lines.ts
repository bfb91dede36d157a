import type { WatchedItem, WebhookDomain } from '../../hub/types.js';
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

/** The built-in sample's repository, whose name stands in for a repository of a watched user or organization. */
const SAMPLE_REPO_NAME = 'gradio-user-history';

/**
 * `hub webhooks send` arguments that make its sample look like what `listen` watches: the first watched
 * repository's type and name (a watched user's or organization's repository otherwise), and a discussion
 * event when only discussions are watched.
 */
export function sampleArgs(watched: readonly WatchedItem[], domains: readonly WebhookDomain[] | undefined): string[] {
  const first = watched[0];
  const args = domains !== undefined && !domains.includes('repo') ? ['--event', 'discussion'] : [];
  if (first === undefined) return args;
  const repo =
    first.type === 'user' || first.type === 'org'
      ? [`repo.name=${first.name}/${SAMPLE_REPO_NAME}`]
      : [`repo.type=${first.type}`, `repo.name=${first.name}`];
  return [...args, ...repo.flatMap((assignment) => ['--set', shellWord(assignment)])];
}

/** A word the shell reads back as it is: quoted when it holds anything but the characters of ids and URLs. */
function shellWord(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * A ready-to-run sample delivery to the local receiver. The temporary secret goes into it only when
 * the output is a terminal: a log file or a CI job's output keeps no secret.
 */
export function sendLine(bin: string, localUrl: string, secret: string, terminal: boolean, sample: readonly string[] = []): string {
  const command = [`${bin} webhooks send ${localUrl}`, ...sample].join(' ');
  return terminal
    ? `Try it: ${command} --secret ${secret}`
    : `Try it: ${command} --secret <this listen's secret> (shown only when the output is a terminal)`;
}

/** What to do when the built-in tunnel cannot open: go on without one. */
export const NO_TUNNEL_HINT =
  'To go on without a tunnel, give the Hub an address of your own that reaches this machine: ' +
  '--tunnel none --port N --public-url URL (a proxy, a Space, a cloudflared tunnel to port N).';
