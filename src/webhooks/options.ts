import { isRedisUrl } from '../config/redis-url.js';
import type { Clock } from '../runtime/clock.js';
import { listenHost } from '../runtime/listen-host.js';
import type { Logger } from '../runtime/logger.js';
import type { WebhookContext } from './context.js';
import type { DeliveryJournal } from './journal/entry.js';
import type { LandingPageInfo } from './landing-page.js';
import type { WebhookPayload } from './payload.js';
import type { LocalTunnelOptions } from './local-tunnel.js';
import type { TunnelProvider } from './tunnel.js';

export const DEFAULT_PORT = 7860;
/** Hub payloads weigh a few KiB; 1 MiB leaves room for long `updatedRefs` lists. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** A Hub delivery arrives in milliseconds; a sender slower than this only holds a connection open. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** Replaces the landing page: an HTML string, or a function of the server's state returning one. */
export type WebhooksUi = string | ((info: LandingPageInfo) => string | Promise<string>);

export interface WebhooksServerOptions {
  /** The shared secret; defaults to `WEBHOOK_SECRET`. Unset or empty: routes are open to everyone. */
  readonly webhookSecret?: string;
  /** Replaces the default landing page at `GET /`. */
  readonly ui?: WebhooksUi;
  /** Defaults to `PORT`, else 7860. `0` picks a free port. */
  readonly port?: number;
  /** Defaults to `HOST`, else 0.0.0.0 on a Space (`SPACE_HOST` or `SPACE_ID` set), else 127.0.0.1. */
  readonly host?: string;
  /** Largest accepted body in bytes (413 beyond it); defaults to 1 MiB. */
  readonly bodyLimit?: number;
  /**
   * Milliseconds a request has to arrive whole, body included, counted from its first byte (a body that
   * trickles in is cut with a 408 and its connection closed); defaults to 10 s.
   */
  readonly requestTimeout?: number;
  /** Milliseconds the request line and headers have to arrive in; defaults to `requestTimeout`, and never exceeds it. */
  readonly headersTimeout?: number;
  /**
   * Opens a public URL at launch with the built-in tunnel (a localtunnel.me URL that closes itself
   * after 72 hours), as huggingface_hub does locally; an object sets the built-in tunnel's options
   * (another localtunnel server, say). Off by default: nothing leaves the machine.
   */
  readonly share?: boolean | LocalTunnelOptions;
  /** Opens a public URL at launch with this provider instead (`localTunnel({ host })`, or your own). */
  readonly tunnel?: TunnelProvider;
  /** Where request logs go; defaults to a pino logger on stdout, `false` silences it. */
  readonly logger?: Logger | false;
  /** Start by itself once the script's own code has run (default `true`); `launch()` always works. */
  readonly autoStart?: boolean;
  /** Prints the startup lines (routes, secret state); defaults to `console.log`. */
  readonly print?: (line: string) => void;
  /** Stamps each delivery's `receivedAt`; defaults to the system clock. */
  readonly clock?: Clock;
  /**
   * Replicas of one receiver share this Redis (`redis://…`; defaults to `WEBHOOK_REDIS_URL`): a delivery
   * whose `Webhook-Id` one of them handled is answered 200 and not handled again, for 24 hours.
   */
  readonly redisUrl?: string;
  /**
   * Appends one JSON line per delivery that carried the secret (its `Webhook-Id`, route, time, headers
   * without the secret, body, the answer's status and milliseconds) to this file; a `redis://` URL keeps
   * them in a capped stream on that Redis instead. `hub webhooks deliveries` and `redeliver` read it.
   */
  readonly journal?: string | DeliveryJournal;
  /** Deliveries the `journal` keeps, oldest dropped first (default 10,000, for a file as for Redis). */
  readonly journalMax?: number;
  /**
   * Told of every delivery the server refuses (a missing or wrong secret, a body that is not a JSON
   * payload, a route that does not exist): when, where, the status and the `error` it answered; never
   * the body or the secret. A listener that throws changes nothing of the answer.
   */
  readonly onRefused?: (refusal: WebhookRefusal) => void;
  /**
   * Told of every delivery a handler answered, once the answer is sent: its payload and context, the status and
   * the milliseconds from its first byte to the answer (the journal's `ms`, the same measurement).
   * A listener that throws changes nothing.
   */
  readonly onDelivered?: (delivery: WebhookDelivered) => void;
  /** Environment to read `WEBHOOK_SECRET`, `WEBHOOK_REDIS_URL`, `PORT`, `HOST`, `SPACE_HOST` and `SPACE_ID` from; defaults to `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

/** A delivery the server refused, as `onRefused` hears of it. */
export interface WebhookRefusal {
  readonly at: Date;
  readonly method: string;
  /** The path, without its query (which may hold a secret). */
  readonly route: string;
  readonly statusCode: number;
  /** The `error` of the JSON answer: what the sender has to fix. */
  readonly error: string;
}

/** A delivery a handler answered, as `onDelivered` hears of it. */
export interface WebhookDelivered {
  readonly payload: WebhookPayload;
  readonly context: WebhookContext;
  readonly status: number;
  /** From the request's first byte to the answer sent, to a tenth of a millisecond. */
  readonly ms: number;
}

export interface ResolvedOptions {
  readonly secret: string | undefined;
  readonly port: number;
  readonly host: string;
  readonly bodyLimit: number;
  readonly requestTimeout: number;
  readonly headersTimeout: number;
  /** Set on a Hugging Face Space, whose public URL is `https://<SPACE_HOST>`. */
  readonly spaceHost: string | undefined;
  readonly redisUrl: string | undefined;
}

export function resolveOptions(options: WebhooksServerOptions): ResolvedOptions {
  const env = options.env ?? process.env;
  const port = options.port ?? (env.PORT?.trim() ? Number(env.PORT) : DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`Invalid port ${JSON.stringify(options.port ?? env.PORT)}: use an integer from 0 to 65535 (0 picks a free port).`);
  }
  const bodyLimit = positiveInteger('bodyLimit', options.bodyLimit ?? DEFAULT_BODY_LIMIT, 'bytes');
  const requestTimeout = positiveInteger('requestTimeout', options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS, 'milliseconds');
  const headersTimeout = Math.min(
    positiveInteger('headersTimeout', options.headersTimeout ?? requestTimeout, 'milliseconds'),
    requestTimeout,
  );
  const redisUrl = options.redisUrl ?? (env.WEBHOOK_REDIS_URL?.trim() || undefined);
  if (redisUrl !== undefined && !isRedisUrl(redisUrl)) {
    throw new RangeError('Invalid redisUrl (or WEBHOOK_REDIS_URL): use redis://host:port/db or rediss://… for TLS.');
  }
  return {
    secret: options.webhookSecret || env.WEBHOOK_SECRET || undefined,
    port,
    host: options.host ?? listenHost(env),
    bodyLimit,
    requestTimeout,
    headersTimeout,
    spaceHost: env.SPACE_HOST?.trim() || undefined,
    redisUrl,
  };
}

function positiveInteger(name: string, value: number, unit: string): number {
  if (!Number.isInteger(value) || value <= 0)
    throw new RangeError(`Invalid ${name} ${JSON.stringify(value)}: use a positive number of ${unit}.`);
  return value;
}
