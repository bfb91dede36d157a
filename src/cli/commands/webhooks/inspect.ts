import { spawn } from 'node:child_process';
import * as Flags from '@oclif/core/flags';
import { isRedisUrl } from '../../../config/redis-url.js';
import { CliCommand } from '../../cli-command.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { runInspector } from '../../inspect/run-inspector.js';
import { stopSignal } from '../../listen/stop-signal.js';

export default class WebhooksInspect extends CliCommand {
  // A server that runs until stopped: there is no result to print as JSON.
  static override enableJsonFlag = false;
  static override summary = 'A local page over a journal: every delivery live, filters, payloads, diffs, and Replay with a verdict.';
  static override description =
    'Serves a page on 127.0.0.1 (unless --host says otherwise) at a URL with a fresh random token (requests without it get 401): ' +
    'the journal’s deliveries newest first, arriving live as the receiver journals them; filters by event, repository, status ' +
    '(delivered 2xx, refused 4xx, failed otherwise), time and free text; each delivery’s headers (credentials redacted), payload, ' +
    'the answer it got, a diff against another; and Replay, which sends it again to its forward target (or a URL you give) and ' +
    'records the verdict (fixed, regressed, still failing, still passing) beside the journal, where `hub webhooks deliveries` ' +
    'shows it too. Replays carry --secret (else WEBHOOK_SECRET), which never reaches the page. Ctrl-C stops it.';
  static override examples = [
    '<%= config.bin %> webhooks inspect --journal deliveries.jsonl --open',
    '<%= config.bin %> webhooks inspect --redis redis://127.0.0.1:6379/0 --port 7870',
  ];
  static override flags = {
    journal: Flags.string({
      helpValue: 'FILE',
      exactlyOne: ['journal', 'redis'],
      description: 'A journal file (`listen --journal FILE`).',
    }),
    redis: Flags.string({
      helpValue: 'URL',
      exactlyOne: ['journal', 'redis'],
      description: 'A Redis journal (`listen --journal redis://…`).',
    }),
    port: Flags.integer({ min: 0, max: 65535, default: 0, description: 'The port (0: a free one).' }),
    host: Flags.string({ default: '127.0.0.1', description: 'The address to listen on; anything but loopback opens it to your network.' }),
    open: Flags.boolean({ description: 'Open the page in your browser.' }),
    secret: Flags.string({ description: 'Sent in X-Webhook-Secret with each replay. Default: WEBHOOK_SECRET.' }),
  };

  async run(): Promise<void> {
    const stop = stopSignal();
    try {
      const { flags } = await this.parse(WebhooksInspect);
      if (flags.redis !== undefined && !isRedisUrl(flags.redis))
        throw new CliError(`--redis must be a redis:// (or rediss://) URL, got "${flags.redis}".`, ExitCode.usage);
      const journal = (flags.journal ?? flags.redis)!;
      let inspector: Awaited<ReturnType<typeof runInspector>>;
      try {
        inspector = await runInspector({
          journal,
          host: flags.host,
          port: flags.port,
          secret: flags.secret ?? (this.runtime.env.WEBHOOK_SECRET || undefined),
          fetch: this.runtime.fetch,
          warn: (line) => this.logToStderr(line),
        });
      } catch (error) {
        throw new CliError(`The inspector could not start on ${journal}: ${(error as Error).message}`, ExitCode.usage);
      }
      if (!['127.0.0.1', '::1', 'localhost'].includes(flags.host))
        this.logToStderr(`Listening on ${flags.host}: anyone who can reach it and has the URL's token can see the deliveries.`);
      this.log(`Inspecting ${journal}: ${inspector.deliveries} deliveries so far.`);
      this.log(`Open ${inspector.url}`);
      this.log('Ctrl-C stops.');
      if (flags.open) openBrowser(inspector.url);
      const signal = await stop.signal;
      this.log(`${signal}: stopping the inspector`);
      await inspector.close();
    } finally {
      stop.dispose();
    }
  }
}

/** The desktop's way to open a URL; a failure is not the inspector's. */
function openBrowser(url: string): void {
  const [command, ...args] =
    process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""', url] : ['xdg-open', url];
  const child = spawn(command!, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}
