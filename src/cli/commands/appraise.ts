import { once } from 'node:events';
import * as Args from '@oclif/core/args';
import { Command } from '@oclif/core/command';
import * as Flags from '@oclif/core/flags';
import { appraise, type AppraisalModel } from '../../appraisal/appraisal.js';
import { loadShippedModel } from '../../appraisal/shipped-model.js';
import { ConfigError, loadChatConfig, type ChatConfig } from '../../config/chat-config.js';
import { EMOTION_NAMES, type Appraisal } from '../../emotions/emotions.js';
import { roundAppraisal } from '../../emotions/model.js';
import { configuredAppraisalReader, modelAppraisal, type AppraisalReader } from '../../providers/appraisal-reader.js';
import { boundedLines } from '../bounded-lines.js';
import { cliRuntime } from '../cli-command.js';
import { ExitCode } from '../exit-codes.js';

/** What `--model` needs and `hub serve` needs to chat: the provider's key (a local server takes any). */
export const MODEL_KEY_MISSING =
  'LLM_API_KEY is not set, so the model cannot read: set LLM_API_KEY (any value for a local server such as Ollama), and LLM_BASE_URL and LLM_MODEL for a server that is not OpenAI, as for hub serve; APPRAISAL_MODEL picks another model than LLM_MODEL';

export default class Appraise extends Command {
  static override description =
    'Read messages as the chat service does: for each TEXT (or each line of standard input when none is given), the probability of each emotion and of neutral, the reading (the most probable of the six), the strongest emotion and the words that weighed most. A table on a terminal, one JSON line each when piped or with --json. English only.';

  static override examples = [
    `<%= config.bin %> appraise "I am furious, this is outrageous"`,
    `<%= config.bin %> appraise "so happy today" "why is the sky blue?"`,
    '<%= config.bin %> appraise --json < messages.txt',
    'LLM_API_KEY=ollama LLM_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=llama3.2 <%= config.bin %> appraise --model "I just got engaged"',
  ];

  static override args = {
    text: Args.string({ description: 'a message to read; several may be given; none: each line of standard input', ignoreStdin: true }),
  };

  static override flags = {
    json: Flags.boolean({ description: 'one JSON line per message, even on a terminal' }),
    model: Flags.boolean({
      description:
        'read with the chat model, as APPRAISAL=model does (the LLM_* provider, APPRAISAL_MODEL): one request per message; "source" says "local" where its reading failed',
    }),
  };

  // Every argument is one TEXT.
  static override strict = false;

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Appraise);
    const { env, fetch } = cliRuntime();
    let config: ChatConfig;
    try {
      config = loadChatConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) this.error(error.message, { exit: 2 });
      throw error;
    }
    if (flags.model && config.primary.apiKey === undefined) {
      process.stderr.write(`${MODEL_KEY_MISSING}\n`);
      this.exit(ExitCode.config);
    }
    const readWith = reader(await loadShippedModel(), flags.model ? configuredAppraisalReader(config, fetch) : undefined);
    const out = flags.json || !process.stdout.isTTY ? jsonLines() : tableRows(flags.model);
    const { maxMessageLength } = config;
    let failed = false;
    const tooLong = (length: number, line: number): Promise<void> => {
      // Over the chat's own limit: said, not read (a reading's work stays bounded), and the exit is 1 at the end.
      failed = true;
      return emit(out.error(`longer than MAX_MESSAGE_LENGTH (${length} > ${maxMessageLength} characters)`, line));
    };
    const read = async (text: string): Promise<void> => emit(out.reading(text, roundAppraisal(await readWith(text))));
    const texts = argv as string[];
    if (texts.length > 0) {
      for (const [index, text] of texts.entries()) await (text.length > maxMessageLength ? tooLong(text.length, index + 1) : read(text));
    } else {
      // One line in, one line out, as the lines come: it works in a pipe and typed at a terminal, and
      // a line is never held beyond the limit, however long it is.
      process.stdin.setEncoding('utf8');
      for await (const entry of boundedLines(process.stdin, maxMessageLength)) {
        if ('tooLong' in entry) await tooLong(entry.tooLong, entry.line);
        else if (entry.text.trim() !== '') await read(entry.text);
      }
    }
    if (failed) this.exit(1);
  }
}

/**
 * How a text is read: locally, or by the model with the local reading as its fallback (and its
 * cues). Why the model's reading failed is said on stderr once, not a line per text; the key never.
 */
function reader(model: AppraisalModel, second: AppraisalReader | undefined): (text: string) => Promise<Appraisal> {
  let told = false;
  // Never aborted: each request has its own deadline (LLM_TIMEOUT_MS).
  const { signal } = new AbortController();
  return async (text) => {
    const local = appraise(model, text);
    if (second === undefined) return { ...local, source: 'local' };
    try {
      return modelAppraisal((await second.read(text, signal)).appraisal, local);
    } catch (error) {
      if (!told) process.stderr.write(`the model's reading failed (${second.describe(error)}); the local reading is used instead\n`);
      told = true;
      return { ...local, source: 'local' };
    }
  };
}

/** Writes a line, and waits while the reader of a pipe is behind: output is never queued in memory. */
async function emit(line: string): Promise<void> {
  if (!process.stdout.write(`${line}\n`)) await once(process.stdout, 'drain');
}

interface Output {
  reading(text: string, appraisal: Appraisal): string;
  error(message: string, line: number): string;
}

function jsonLines(): Output {
  return {
    reading: (text, { emotions, neutral, strongest, reading, also, cues, source }) =>
      JSON.stringify({ text, emotions, neutral, reading, strongest, ...(also ? { also } : {}), cues, source }),
    error: (error, line) => JSON.stringify({ line, error }),
  };
}

const TEXT_WIDTH = 32;

/**
 * A row a message, in fixed columns so that rows print as they come: text, reading, the five values,
 * who read it (with `--model`), cues.
 */
function tableRows(withSource: boolean): Output {
  const cell = (value: string, width: number) => (value.length > width ? `${value.slice(0, width - 1)}…` : value.padEnd(width));
  let header = false;
  const row = (cells: string): string => {
    if (header) return cells;
    header = true;
    const source = withSource ? `${cell('source', 6)}  ` : '';
    return `${cell('text', TEXT_WIDTH)}  ${cell('reading', 9)}  ${EMOTION_NAMES.map((name) => cell(name, 9)).join(' ')}  ${source}cues\n${cells}`;
  };
  return {
    reading: (text, { emotions, reading, cues, source }) =>
      row(
        `${cell(text.replace(/\s+/g, ' '), TEXT_WIDTH)}  ${cell(reading ?? '', 9)}  ${EMOTION_NAMES.map((name) => cell(emotions[name].toFixed(2), 9)).join(' ')}  ${withSource ? `${cell(source ?? '', 6)}  ` : ''}${cues.join(', ')}`,
      ),
    error: (error, line) => row(`${cell(`line ${line}`, TEXT_WIDTH)}  ${error}`),
  };
}
