import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { systemClock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { scheduleAutoStart } from './auto-start.js';
import type { DeliveryDedup } from './delivery-dedup.js';
import type { DeliveryJournal } from './journal/entry.js';
import { DeliveryEvents, type WebhookListener, type WebhookWildcardListener } from './delivery-events.js';
import type { WebhookEventName } from './event-name.js';
import { warnExperimental } from './experimental-warning.js';
import type { WebhookHandler } from './handler.js';
import { renderLandingPage, type LandingPageInfo } from './landing-page.js';
import { resolveOptions, type ResolvedOptions, type WebhooksServerOptions } from './options.js';
import { WebhookRegistry } from './registry.js';
import { routePath, WEBHOOKS_PREFIX } from './route-name.js';
import { readyMessages, secretMessages } from './startup-messages.js';
import { localTunnel } from './local-tunnel.js';
import { WebhookTunnelError } from './errors.js';
import type { Tunnel, TunnelProvider } from './tunnel.js';

/** What `addWebhook` and `webhookEndpoint` registered. */
export interface RegisteredWebhook {
  readonly name: string;
  /** `/webhooks/<name>` */
  readonly path: string;
  readonly server: WebhooksServer;
}

/** A listening server, as `launch()` resolves it. */
export interface LaunchedWebhooksServer {
  /** The URL to give the Hub: the tunnel's or the Space's public URL when there is one, else `localUrl`. */
  readonly url: string;
  readonly localUrl: string;
  /** The absolute POST URL of each route. */
  readonly webhookUrls: readonly string[];
  close(): Promise<void>;
}

interface Running {
  readonly app: FastifyInstance;
  readonly dedup: DeliveryDedup | undefined;
  readonly journal: DeliveryJournal | undefined;
  readonly tunnel: Tunnel | undefined;
  /** Why the tunnel asked for did not open: `launch()` reports it, and the local server serves on. */
  readonly tunnelError: WebhookTunnelError | undefined;
  readonly localUrl: string;
  readonly url: string;
}

/**
 * Receives Hugging Face Hub webhook deliveries: one `POST /webhooks/<name>`
 * route per handler, a landing page at `GET /`, and an optional shared secret.
 * Experimental, like huggingface_hub's `WebhooksServer` it mirrors.
 */
export class WebhooksServer {
  readonly #options: WebhooksServerOptions;
  readonly #config: ResolvedOptions;
  readonly #registry = new WebhookRegistry();
  readonly #events = new DeliveryEvents();
  readonly #print: (line: string) => void;
  #cancelAutoStart: (() => void) | undefined;
  #launching: Promise<Running> | undefined;
  #running: Running | undefined;

  constructor(options: WebhooksServerOptions = {}) {
    warnExperimental(options.env);
    this.#options = options;
    this.#config = resolveOptions(options);
    this.#print = options.print ?? ((line) => console.log(line));
  }

  /** Whether deliveries must carry the secret. */
  get secretSet(): boolean {
    return this.#config.secret !== undefined;
  }

  /** Registered route names, in registration order. */
  get webhooks(): string[] {
    return this.#registry.names;
  }

  /** The public (or local) URL while listening. */
  get url(): string | undefined {
    return this.#running?.url;
  }

  /** Registers `handler` at `/webhooks/<its function name>`. */
  addWebhook(handler: WebhookHandler): RegisteredWebhook;
  /** Registers `handler` at `/webhooks/<name>` (`'/name'` and `'name'` are the same). */
  addWebhook(name: string, handler: WebhookHandler): RegisteredWebhook;
  addWebhook(nameOrHandler: string | WebhookHandler, maybeHandler?: WebhookHandler): RegisteredWebhook {
    const [explicit, handler] =
      typeof nameOrHandler === 'string' ? [nameOrHandler, maybeHandler as WebhookHandler] : [undefined, nameOrHandler];
    const name = this.#registry.add(explicit, handler);
    if (this.#running) this.#print(`  - POST ${this.#running.url}${routePath(name)}`);
    this.#armAutoStart();
    return { name, path: routePath(name), server: this };
  }

  /**
   * Listens to every verified delivery, on any route, by `scope:action`
   * (`'repo.content:update'`), or to all of them with `'*'`. With a listener,
   * the bare `POST /webhooks` route accepts deliveries too.
   */
  on(name: '*', listener: WebhookWildcardListener): this;
  on(name: WebhookEventName, listener: WebhookListener): this;
  on(name: WebhookEventName | '*', listener: WebhookListener | WebhookWildcardListener): this {
    this.#events.on(name as WebhookEventName, listener as WebhookListener);
    this.#armAutoStart();
    return this;
  }

  off(name: '*', listener: WebhookWildcardListener): this;
  off(name: WebhookEventName, listener: WebhookListener): this;
  off(name: WebhookEventName | '*', listener: WebhookListener | WebhookWildcardListener): this {
    this.#events.off(name, listener);
    return this;
  }

  /** Starts listening (once; later calls share the first) and prints each route's URL. */
  async launch(): Promise<LaunchedWebhooksServer> {
    this.#cancelAutoStart?.();
    this.#cancelAutoStart = undefined;
    this.#launching ??= this.#start().catch((error: unknown) => {
      this.#launching = undefined;
      throw error;
    });
    const running = await this.#launching;
    if (running.tunnelError) throw running.tunnelError;
    return {
      url: running.url,
      localUrl: running.localUrl,
      webhookUrls: this.#routeUrls(running.url),
      close: () => this.close(),
    };
  }

  /** Stops listening and closes the tunnel; a server never launched only forgets its automatic start. */
  async close(): Promise<void> {
    this.#cancelAutoStart?.();
    this.#cancelAutoStart = undefined;
    const launching = this.#launching;
    this.#launching = undefined;
    const running = await launching?.catch(() => undefined);
    if (running === undefined) return;
    if (this.#running === running) this.#running = undefined;
    // The tunnel first: its client holds connections to the local server, which would keep it open.
    await running.tunnel?.close?.();
    await running.app.close();
    await running.dedup?.close();
    await running.journal?.close();
  }

  #armAutoStart(): void {
    if (this.#options.autoStart === false || this.#cancelAutoStart || this.#launching) return;
    this.#cancelAutoStart = scheduleAutoStart(() => {
      this.#cancelAutoStart = undefined;
      this.launch().catch((error: unknown) => {
        // The local server serves on without its tunnel; the failure is printed and logged already.
        if (error instanceof WebhookTunnelError) return;
        console.error(`The webhooks server could not start: ${(error as Error).message}`);
        process.exitCode = 1;
      });
    });
  }

  async #start(): Promise<Running> {
    const { host, port, bodyLimit, requestTimeout, headersTimeout, secret, spaceHost } = this.#config;
    // Fastify and pino load here, at launch: importing the library (to type a handler, to verify a
    // secret, to validate a payload) stays cheap.
    const [{ buildWebhooksApp }, logger] = await Promise.all([import('./app.js'), this.#logger()]);
    const dedup = await this.#connectDedup(logger);
    const journal = await this.#openJournal(logger);
    const app = buildWebhooksApp({
      journal,
      secret,
      bodyLimit,
      requestTimeout,
      headersTimeout,
      dedup,
      logger,
      clock: this.#options.clock ?? systemClock,
      handlerFor: (name) => this.#registry.get(name),
      events: this.#events,
      landingPage: () => this.#landingPage(),
      onRefused: this.#options.onRefused,
      onDelivered: this.#options.onDelivered,
    });
    try {
      await app.listen({ host, port });
    } catch (error) {
      await dedup?.close();
      await journal?.close();
      throw error;
    }
    const boundPort = (app.server.address() as AddressInfo).port;
    const localUrl = `http://${formatHost(host)}:${boundPort}`;
    let tunnel: Tunnel | undefined;
    let tunnelError: WebhookTunnelError | undefined;
    try {
      tunnel = await this.#tunnelProvider()?.open({ url: localUrl, host, port: boundPort });
    } catch (error) {
      // A public URL is a convenience on top of a server that works: it keeps serving locally.
      tunnelError = new WebhookTunnelError(localUrl, error);
      logger.error({ err: error, localUrl }, 'the public URL could not open; the local server keeps serving');
    }
    const publicUrl = tunnel?.url.replace(/\/+$/, '') ?? (spaceHost === undefined ? undefined : `https://${spaceHost}`);
    const running: Running = { app, dedup, journal, tunnel, tunnelError, localUrl, url: publicUrl ?? localUrl };
    this.#running = running;
    const lines = [
      ...secretMessages(secret !== undefined),
      ...(tunnelError ? [`The public URL could not open: ${tunnelError.message} The local URL still works.`] : []),
      ...readyMessages(localUrl, publicUrl, this.#routeUrls(running.url), tunnel?.expiresAt),
    ];
    for (const line of lines) {
      this.#print(line);
    }
    return running;
  }

  /** Only a server given a Redis URL loads the Redis client: the receiver stays light without one. */
  async #connectDedup(logger: Logger): Promise<DeliveryDedup | undefined> {
    const url = this.#config.redisUrl;
    if (url === undefined) return undefined;
    const { RedisDeliveryDedup } = await import('./redis-delivery-dedup.js');
    return RedisDeliveryDedup.connect(url, logger);
  }

  async #openJournal(logger: Logger): Promise<DeliveryJournal | undefined> {
    const { journal, journalMax } = this.#options;
    if (journal === undefined || typeof journal === 'object') return journal;
    const { openJournal } = await import('./journal/open-journal.js');
    return openJournal(journal, logger, journalMax);
  }

  /** The given provider; else the built-in tunnel when `share` is on; else none. */
  #tunnelProvider(): TunnelProvider | undefined {
    const { tunnel, share, clock } = this.#options;
    if (tunnel !== undefined) return tunnel;
    if (share === undefined || share === false) return undefined;
    return localTunnel({ print: this.#print, clock, ...(share === true ? {} : share) });
  }

  #routeUrls(base: string): string[] {
    return this.#routes(base).map((route) => route.url);
  }

  /** The named routes, then the bare `/webhooks` route (name `''`) while `on(...)` listeners exist. */
  #routes(base: string): { name: string; url: string }[] {
    const routes = this.#registry.names.map((name) => ({ name, url: base + routePath(name) }));
    return this.#events.listenerCount > 0 ? [...routes, { name: '', url: base + WEBHOOKS_PREFIX }] : routes;
  }

  async #landingPage(): Promise<string> {
    const running = this.#running;
    const url = running?.url ?? '';
    const info: LandingPageInfo = {
      url,
      webhooks: this.#routes(url),
      secretSet: this.secretSet,
      local: running === undefined || running.url === running.localUrl,
    };
    const ui = this.#options.ui;
    if (ui === undefined) return renderLandingPage(info);
    return typeof ui === 'string' ? ui : await ui(info);
  }

  async #logger(): Promise<Logger> {
    const logger = this.#options.logger;
    if (logger !== undefined && logger !== false) return logger;
    if (logger === false) return (await import('pino')).default({ enabled: false });
    const { createLogger } = await import('../runtime/logger.js');
    return createLogger({ name: 'webhooks-server', debug: false });
  }
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
