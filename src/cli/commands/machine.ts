import { Command } from '@oclif/core/command';
import { systemMachine } from '../../actors/system-machine.js';

export default class Machine extends Command {
  static override description =
    "Print the chat system's state machine definition as JSON (XState's machine.toJSON(), for Stately's visualizer)";

  async run(): Promise<void> {
    process.stdout.write(`${JSON.stringify(systemMachine.toJSON(), null, 2)}\n`);
  }
}
