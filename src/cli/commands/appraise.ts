import { createInterface } from 'node:readline';
import * as Args from '@oclif/core/args';
import { Command } from '@oclif/core/command';
import * as Flags from '@oclif/core/flags';
import { appraise } from '../../appraisal/appraisal.js';
import { loadShippedModel } from '../../appraisal/shipped-model.js';
import { ConfigError, loadChatConfig } from '../../config/chat-config.js';
import { EMOTION_NAMES, type Appraisal } from '../../emotions/emotions.js';
import { roundAppraisal } from '../../emotions/model.js';

export default class Appraise extends Command {
  static override description =
    'Read messages as the chat service does: for each TEXT (or each line of standard input when none is given), the probability of each emotion and of neutral, the reading (the most probable of the six), the strongest emotion and the words that weighed most. A table on a terminal, one JSON line each when piped or with --json. English only.';

  static override examples = [
    `<%= config.bin %> appraise "I am furious, this is outrageous"`,
    `<%= config.bin %> appraise "so happy today" "why is the sky blue?"`,
    '<%= config.bin %> appraise --json < messages.txt',
  ];

  static override args = {
    text: Args.string({ description: 'a message to read; several may be given; none: each line of standard input', ignoreStdin: true }),
  };

  static override flags = {
    json: Flags.boolean({ description: 'one JSON line per message, even on a terminal' }),
  };

  // Every argument is one TEXT.
  static override strict = false;

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Appraise);
    let maxLength: number;
    try {
      maxLength = loadChatConfig().maxMessageLength;
    } catch (error) {
      if (error instanceof ConfigError) this.error(error.message, { exit: 2 });
      throw error;
    }
    const model = await loadShippedModel();
    const out = flags.json || !process.stdout.isTTY ? jsonLines() : tableRows();
    const texts = argv as string[];
    let failed = false;
    const read = (text: string, line?: number): void => {
      // Over the chat's own limit: said, not read (a reading's work stays bounded), and the exit is 1 at the end.
      if (text.length > maxLength) {
        failed = true;
        out.error(`longer than MAX_MESSAGE_LENGTH (${text.length} > ${maxLength} characters)`, line);
      } else out.reading(text, roundAppraisal({ ...appraise(model, text), source: 'local' }));
    };
    if (texts.length > 0) {
      for (const [index, text] of texts.entries()) read(text, index + 1);
    } else {
      // One line in, one line out, as the lines come: it works in a pipe and typed at a terminal.
      let line = 0;
      for await (const text of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
        line += 1;
        if (text.trim() !== '') read(text, line);
      }
    }
    if (failed) this.exit(1);
  }
}

interface Output {
  reading(text: string, appraisal: Appraisal): void;
  error(message: string, line: number | undefined): void;
}

function jsonLines(): Output {
  return {
    reading: (text, { emotions, neutral, strongest, reading, also, cues, source }) =>
      process.stdout.write(`${JSON.stringify({ text, emotions, neutral, reading, strongest, ...(also ? { also } : {}), cues, source })}\n`),
    error: (error, line) => process.stdout.write(`${JSON.stringify({ line, error })}\n`),
  };
}

const TEXT_WIDTH = 32;

/** A row a message, in fixed columns so that rows print as they come: text, reading, the five values, cues. */
function tableRows(): Output {
  const cell = (value: string, width: number) => (value.length > width ? `${value.slice(0, width - 1)}…` : value.padEnd(width));
  let header = false;
  const row = (cells: string): void => {
    if (!header) {
      header = true;
      process.stdout.write(
        `${cell('text', TEXT_WIDTH)}  ${cell('reading', 9)}  ${EMOTION_NAMES.map((name) => cell(name, 9)).join(' ')}  cues\n`,
      );
    }
    process.stdout.write(`${cells}\n`);
  };
  return {
    reading: (text, { emotions, reading, cues }) =>
      row(
        `${cell(text.replace(/\s+/g, ' '), TEXT_WIDTH)}  ${cell(reading ?? '', 9)}  ${EMOTION_NAMES.map((name) => cell(emotions[name].toFixed(2), 9)).join(' ')}  ${cues.join(', ')}`,
      ),
    error: (error, line) => row(`${cell(line === undefined ? '' : `line ${line}`, TEXT_WIDTH)}  ${error}`),
  };
}
