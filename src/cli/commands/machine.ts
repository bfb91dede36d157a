import { Command } from '@oclif/core/command';
import { machineJson } from '../../system/machine-json.js';
import { printableSystemMachine } from '../../actors/system-machine.js';

export default class Machine extends Command {
  static override description =
    "Print the chat system's state machine as JSON that XState's createMachine(json) accepts (paste it into Stately's visualizer)";

  static override examples = ['<%= config.bin %> machine > chat-system.machine.json'];

  async run(): Promise<void> {
    await this.parse(Machine);
    process.stdout.write(`${JSON.stringify(machineJson(printableSystemMachine()), null, 2)}\n`);
  }
}
