import { HubApiError, HubConfigError, HubConnectionError, WebhookInputError } from '../hub/errors.js';

/** The `hub` CLI's exit statuses (documented in docs/hub-client-and-cli.md). */
export const ExitCode = {
  ok: 0,
  /** The user declined a confirmation, or something unexpected broke. */
  aborted: 1,
  /** The command line is wrong: unknown flag, missing argument, bad value, no terminal for a prompt. */
  usage: 2,
  /** No token, or an unusable HF_ENDPOINT. */
  config: 3,
  /** The hub answered with an error (or with something that is not a webhook). */
  hub: 4,
  /** The hub (or, for `hub webhooks send`, the receiver) could not be reached. */
  unreachable: 5,
  /** `hub webhooks send`: the receiver answered with a status other than 2xx. */
  refused: 6,
} as const;

/** A failure the command decided on, with the status it exits with. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number,
    /** More for `--json` to print under "error". */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export interface Failure {
  readonly exitCode: number;
  readonly message: string;
  /** What `--json` prints under "error". */
  readonly json: Record<string, unknown>;
}

function exitCodeOf(error: Error): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof WebhookInputError) return ExitCode.usage;
  if (error instanceof HubConfigError) return ExitCode.config;
  if (error instanceof HubApiError) return ExitCode.hub;
  if (error instanceof HubConnectionError) return ExitCode.unreachable;
  // oclif's own parse errors carry their status (2 for usage errors).
  const oclifExit = (error as { oclif?: { exit?: unknown } }).oclif?.exit;
  return typeof oclifExit === 'number' ? oclifExit : ExitCode.aborted;
}

/** How any error a command meets is reported: one message, one status, and its JSON form. */
export function describeFailure(error: unknown): Failure {
  const err = error instanceof Error ? error : new Error(String(error));
  const exitCode = exitCodeOf(err);
  const hub = err instanceof HubApiError ? { status: err.status, serverMessage: err.serverMessage, requestId: err.requestId } : {};
  const details = err instanceof CliError ? err.details : {};
  return { exitCode, message: err.message, json: { message: err.message, exitCode, ...hub, ...details } };
}
