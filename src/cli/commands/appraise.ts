import { createInterface } from 'node:readline';
import { Command } from '@oclif/core/command';
import { appraise, type AppraisalModel } from '../../appraisal/appraisal.js';
import { roundAppraisal } from '../../emotions/model.js';
import { loadShippedModel } from '../../appraisal/shipped-model.js';

export default class Appraise extends Command {
  static override description =
    'Read messages as the chat service does: for each TEXT (or each line of standard input when none is given), one JSON line with the probability of each emotion and of neutral, the strongest emotion, and the words that weighed most. English only.';

  static override examples = [
    `<%= config.bin %> appraise "I am furious, this is outrageous"`,
    `<%= config.bin %> appraise "so happy today" "why is the sky blue?"`,
    '<%= config.bin %> appraise < messages.txt',
  ];

  // Every argument is one TEXT.
  static override strict = false;

  async run(): Promise<void> {
    const { argv } = await this.parse(Appraise);
    const model = await loadShippedModel();
    const texts = argv as string[];
    if (texts.length > 0) {
      for (const text of texts) writeLine(model, text);
      return;
    }
    // One line in, one line out, as the lines come: it works in a pipe and typed at a terminal.
    for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (line.trim() !== '') writeLine(model, line);
    }
  }
}

function writeLine(model: AppraisalModel, text: string): void {
  const { emotions, neutral, strongest, cues } = roundAppraisal(appraise(model, text));
  process.stdout.write(`${JSON.stringify({ text, emotions, neutral, strongest, cues })}\n`);
}
