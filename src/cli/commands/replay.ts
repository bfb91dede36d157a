import * as Args from '@oclif/core/args';
import { Command } from '@oclif/core/command';
import * as Flags from '@oclif/core/flags';
import { replayEventLog } from '../../replay/replay.js';
import type { EmotionState } from '../../emotions/state.js';
import { serializeState } from '../../persistence/emotions-file.js';
import { DEFAULT_REDIS_PREFIX } from '../../config/defaults.js';
import { Redactor } from '../../runtime/secrets.js';
import { urlPasswords, withoutCredentials } from '../../runtime/url-credentials.js';

export default class Replay extends Command {
  static override description =
    'Replay a JSONL event log (written with EVENT_LOG), or the shared mood of replicas on Redis (--redis), and print the final emotions and avatar state as JSON, in the emotions.json layout';

  static override examples = [
    '<%= config.bin %> replay events.jsonl',
    '<%= config.bin %> replay events.jsonl | diff - emotions.json',
    '<%= config.bin %> replay --redis redis://127.0.0.1:6379/0',
  ];

  static override args = {
    // A file name, never stdin's text: oclif would otherwise take piped input for a missing FILE.
    file: Args.string({ description: 'the event log to replay (or give --redis)', ignoreStdin: true }),
  };

  static override flags = {
    redis: Flags.string({ description: 'replay the snapshot and stream the replicas share on this Redis instead of a file' }),
    prefix: Flags.string({ description: "the replicas' REDIS_PREFIX", env: 'REDIS_PREFIX', default: DEFAULT_REDIS_PREFIX }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Replay);
    if ((args.file === undefined) === (flags.redis === undefined)) {
      this.error('give an event log FILE or --redis URL (one of them)', { exit: 2 });
    }
    const source = flags.redis === undefined ? args.file! : withoutCredentials(flags.redis);
    let text: string;
    try {
      text = serializeState(await this.#replay(args.file, flags.redis, flags.prefix));
    } catch (error) {
      // Redis's own words may quote the URL's password.
      const reason = new Redactor(urlPasswords(flags.redis)).redact(withoutCredentials((error as Error).message));
      this.error(`cannot replay ${source}: ${reason}`, { exit: 1 });
    }
    process.stdout.write(text);
  }

  async #replay(file: string | undefined, redis: string | undefined, prefix: string): Promise<EmotionState> {
    const onWarning = (message: string): void => void process.stderr.write(`warning: ${message}\n`);
    if (redis === undefined) return replayEventLog(file!, { onWarning });
    // Loaded only here: replaying a file needs no Redis client.
    const { replayRedis } = await import('../../redis/replay-redis.js');
    return (await replayRedis(redis, prefix, onWarning)).state;
  }
}
