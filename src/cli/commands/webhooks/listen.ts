import { randomBytes } from 'node:crypto';
import * as Flags from '@oclif/core/flags';
import { createWebhook } from '../../../hub/create-webhook.js';
import { deleteWebhook } from '../../../hub/delete-webhook.js';
import { HubApiError } from '../../../hub/errors.js';
import type { HubOptions } from '../../../hub/hub-options.js';
import type { WebhookDomain } from '../../../hub/types.js';
import type { WebhookContext } from '../../../webhooks/context.js';
import type { DeliveryJournal } from '../../../webhooks/journal/entry.js';
import { WebhookTunnelError } from '../../../webhooks/errors.js';
import type { WebhookReply } from '../../../webhooks/handler.js';
import { DEFAULT_TUNNEL_HOST, localTunnel } from '../../../webhooks/local-tunnel.js';
import type { WebhookPayload } from '../../../webhooks/payload.js';
import { WebhooksServer } from '../../../webhooks/server.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { HubCommand } from '../../hub-command.js';
import { httpUrl } from '../../http-url.js';
import { deliveryLine } from '../../listen/delivery-line.js';
import { NO_TUNNEL_HINT, refusedLine, sampleArgs, sendLine } from '../../listen/listen-lines.js';
import { execDelivery, jobEnvironment } from '../../listen/exec-delivery.js';
import { forwardDelivery } from '../../listen/forward-delivery.js';
import { openListenJournal } from '../../listen/target-journal.js';
import { leftovers, ListenRecord, listenRecordPath, processRunning } from '../../listen/listen-record.js';
import { stopSignal } from '../../listen/stop-signal.js';
import { parseWatch, requiredWatchFlag, webhookFlags } from '../../webhook-flags.js';

/** The route the Hub posts to, under the public URL. */
const ROUTE = 'listen';

export default class WebhooksListen extends HubCommand {
  static override summary = 'Receive a webhook’s deliveries on this machine: forward each to a local URL, or run a command.';
  static override description =
    'Starts a local receiver and a public URL for it (the built-in localtunnel by default; with --tunnel none, --public-url is the address ' +
    'the Hub should use, such as your own proxy), creates a webhook on the Hub pointing there with a fresh random secret, and prints its id. ' +
    'Each delivery that carries that secret is forwarded to --forward-to (same body bytes, the Hub’s headers, Webhook-Id and X-Webhook-Secret ' +
    'included) and answered with the target’s status (a 502 when the target cannot be reached, so the Hub retries); or, with --exec, runs ' +
    'the command with the variables a Hub Job gets (WEBHOOK_PAYLOAD, WEBHOOK_REPO_ID, WEBHOOK_REPO_TYPE, WEBHOOK_ID, WEBHOOK_SECRET) and ' +
    'answers 200 when it exits 0. A delivery without the secret is refused (401/403). One line is printed per delivery, refused ones ' +
    'included with the reason; a ready-to-run `hub webhooks send` line for a sample delivery is printed at start (with the secret on a terminal only). ' +
    'Ctrl-C (SIGINT) or SIGTERM deletes the webhook and exits 0; a webhook left by a listen that was killed is deleted by the next one.';
  static override examples = [
    '<%= config.bin %> webhooks listen --watch model:gpt2 --forward-to http://127.0.0.1:7860/webhooks/on_commit',
    '<%= config.bin %> webhooks listen --watch user:julien-c --domain repo --exec \'echo "$WEBHOOK_REPO_ID changed"\'',
    '<%= config.bin %> webhooks listen --watch dataset:stanfordnlp/imdb --forward-to http://127.0.0.1:3000/hook --journal deliveries.jsonl',
    '<%= config.bin %> webhooks listen --watch model:gpt2 --forward-to http://127.0.0.1:3000/hook --tunnel none --port 8080 --public-url https://hooks.example.org',
  ];
  static override flags = {
    watch: requiredWatchFlag,
    domain: webhookFlags.domain,
    'forward-to': Flags.string({
      description: 'Forward each delivery to this URL (e.g. your receiver on 127.0.0.1).',
      exclusive: ['exec'],
    }),
    exec: Flags.string({
      description: 'Run this shell command per delivery instead, with the Hub Job variables.',
      exclusive: ['forward-to'],
    }),
    port: Flags.integer({ min: 0, max: 65535, default: 0, description: 'Local port of the receiver (0: a free one).' }),
    tunnel: Flags.string({ options: ['localtunnel', 'none'], default: 'localtunnel', description: 'How the Hub reaches this machine.' }),
    'public-url': Flags.string({
      description: 'With --tunnel none: the public base URL that reaches --port (the webhook posts to <public-url>/webhooks/listen).',
    }),
    'tunnel-host': Flags.string({ description: `The localtunnel server (default ${DEFAULT_TUNNEL_HOST}; or one you host).` }),
    journal: Flags.string({
      description: 'Append each delivery to this JSON-lines file (or redis:// stream); see `hub webhooks deliveries`.',
    }),
    'journal-max': Flags.integer({
      min: 1,
      default: 10_000,
      description: 'Deliveries the journal keeps, the oldest dropped first.',
    }),
  };

  async run(): Promise<void> {
    const stop = stopSignal();
    try {
      await this.#listen(stop.signal);
    } finally {
      stop.dispose();
    }
  }

  async #listen(stopped: Promise<NodeJS.Signals>): Promise<void> {
    const { flags } = await this.parse(WebhooksListen);
    const watched = parseWatch(flags.watch);
    const secret = randomBytes(24).toString('base64url');
    const target = flags['forward-to'] === undefined ? undefined : httpUrl(flags['forward-to'], '--forward-to');
    const act = this.#action(target, flags.exec, secret);
    const publicUrl = this.#publicUrl(flags.tunnel, flags['public-url']);
    const hub = await this.hubOptions(flags.token);
    const endpoint = hub.hubUrl as string;
    const record = new ListenRecord(listenRecordPath(this.runtime.env));
    await this.#deleteLeftovers(record, endpoint, hub);

    const server = new WebhooksServer({
      webhookSecret: secret,
      port: flags.port,
      host: '127.0.0.1',
      logger: false,
      autoStart: false,
      print: () => {},
      journal: flags.journal === undefined ? undefined : await this.#journal(flags.journal, flags['journal-max'], target),
      env: { HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' },
      onRefused: (refusal) => this.log(refusedLine(refusal)),
      // Printed once answered, with the journal's own milliseconds: the two never disagree.
      onDelivered: ({ payload, context, status, ms }) => this.log(deliveryLine(context.receivedAt, payload, status, ms)),
      ...(publicUrl === undefined && { tunnel: localTunnel({ host: flags['tunnel-host'], print: (line) => this.logToStderr(line) }) }),
    });
    server.addWebhook(`/${ROUTE}`, act);
    let base: string;
    let localUrl: string;
    try {
      const launched = await server.launch();
      base = publicUrl ?? launched.url;
      localUrl = launched.localUrl;
    } catch (error) {
      await server.close();
      if (error instanceof WebhookTunnelError)
        throw new CliError(`The public URL could not open: ${error.message.replace(/\.?$/, '.')} ${NO_TUNNEL_HINT}`, ExitCode.unreachable);
      throw new CliError(`The local receiver could not start: ${(error as Error).message}`, ExitCode.aborted);
    }

    const url = `${base}/webhooks/${ROUTE}`;
    let id: string;
    try {
      ({ id } = await createWebhook({ url, watched, domains: flags.domain as WebhookDomain[] | undefined, secret, ...hub }));
    } catch (error) {
      await server.close();
      throw error;
    }
    await record.add({ id, endpoint, pid: process.pid, createdAt: new Date().toISOString() });
    this.log(`Created webhook ${id}`);
    this.log(`The Hub posts to ${url}`);
    this.log(
      `${flags.exec === undefined ? `Forwarding to ${flags['forward-to']}` : `Running ${flags.exec}`} for each delivery. Ctrl-C deletes the webhook and stops.`,
    );
    const sample = sampleArgs(watched, flags.domain as WebhookDomain[] | undefined);
    this.log(sendLine(this.config.bin, `${localUrl}/webhooks/${ROUTE}`, secret, process.stdout.isTTY === true, sample));

    const signal = await stopped;
    this.log(`${signal}: deleting webhook ${id}`);
    await server.close();
    await deleteWebhook(id, hub);
    await record.remove(id);
    this.log(`Deleted webhook ${id}`);
  }

  /** What each delivery does: forward it, or run the command. */
  #action(
    target: URL | undefined,
    exec: string | undefined,
    secret: string,
  ): (payload: WebhookPayload, context: WebhookContext) => Promise<WebhookReply> {
    if (target !== undefined) return (_payload, context) => forwardDelivery(target, context, secret);
    if (exec !== undefined) {
      return (payload, context) => execDelivery(exec, jobEnvironment(payload, context, secret), this.runtime.env);
    }
    throw new CliError(
      'Provide either --forward-to URL (forward each delivery there) or --exec CMD (run it per delivery).',
      ExitCode.usage,
    );
  }

  async #journal(where: string, maxEntries: number, target: URL | undefined): Promise<DeliveryJournal> {
    try {
      return await openListenJournal(where, maxEntries, target);
    } catch (error) {
      throw new CliError(`The journal ${where} could not open: ${(error as Error).message}`, ExitCode.usage);
    }
  }

  #publicUrl(tunnel: string, publicUrl: string | undefined): string | undefined {
    if (tunnel === 'none') {
      if (publicUrl === undefined)
        throw new CliError('--tunnel none needs --public-url: the address the Hub should post to.', ExitCode.usage);
      return httpUrl(publicUrl, '--public-url').href.replace(/\/+$/, '');
    }
    if (publicUrl !== undefined)
      throw new CliError('--public-url goes with --tunnel none (the built-in tunnel gives its own URL).', ExitCode.usage);
    return undefined;
  }

  /** Webhooks an earlier `listen` created and could not delete (it was killed): deleted now. */
  async #deleteLeftovers(record: ListenRecord, endpoint: string, hub: HubOptions): Promise<void> {
    for (const left of leftovers(await record.read(), endpoint, processRunning)) {
      try {
        await deleteWebhook(left.id, hub);
        this.log(`Deleted webhook ${left.id}, left by a listen that did not stop cleanly (pid ${left.pid}).`);
      } catch (error) {
        // Gone already (deleted by hand): nothing left to do. Anything else: say so and keep the record.
        if (!(error instanceof HubApiError && error.status === 404)) {
          this.logToStderr(`Could not delete webhook ${left.id}, left by an earlier listen: ${(error as Error).message}`);
          continue;
        }
      }
      await record.remove(left.id);
    }
  }
}
