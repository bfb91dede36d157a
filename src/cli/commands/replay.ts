import * as Args from '@oclif/core/args';
import { Command } from '@oclif/core/command';
import { replayEventLog } from '../../actors/replay.js';
import { serializeState } from '../../persistence/emotions-file.js';

export default class Replay extends Command {
  static override description =
    'Replay a JSONL event log (written with EVENT_LOG) and print the final emotions and avatar state as JSON, in the emotions.json layout';

  static override examples = ['<%= config.bin %> replay events.jsonl', '<%= config.bin %> replay events.jsonl | diff - emotions.json'];

  static override args = {
    file: Args.string({ description: 'the event log to replay', required: true }),
  };

  async run(): Promise<void> {
    const { args } = await this.parse(Replay);
    let text: string;
    try {
      text = serializeState(await replayEventLog(args.file, { onWarning: (message) => process.stderr.write(`warning: ${message}\n`) }));
    } catch (error) {
      this.error(`cannot replay ${args.file}: ${(error as Error).message}`, { exit: 1 });
    }
    process.stdout.write(text);
  }
}
