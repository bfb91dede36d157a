import { spawn } from 'node:child_process';
import { once } from 'node:events';
import t from 'tap';
import { ROOT, requireBuilt, runBuiltCli } from '../support/built-cli.js';
import { untraced } from '../../testkit/untraced.js';

t.before(requireBuilt);

const KEYS = ['text', 'emotions', 'neutral', 'reading', 'strongest', 'cues', 'source'];

t.test('hub appraise TEXT…: one JSON line per text, as the service reads it', async (t) => {
  const { code, stdout, stderr } = await runBuiltCli(['appraise', 'I am furious, I hate this', 'I am terrified'], {});
  t.equal(code, 0, stderr);
  const lines = stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.equal(lines.length, 2);
  for (const line of lines) {
    t.same(
      Object.keys(line).filter((key) => key !== 'also'),
      KEYS,
    );
    t.equal(line.source, 'local');
    t.same(Object.keys(line.emotions), ['joy', 'sadness', 'anger', 'fear', 'curiosity']);
  }
  t.match(lines[0], { text: 'I am furious, I hate this', strongest: 'anger' });
  t.ok(lines[0].cues.includes('furious') || lines[0].cues.includes('hate'), JSON.stringify(lines[0].cues));
  t.match(lines[1], { text: 'I am terrified', strongest: 'fear' });
  t.same(lines[1].cues, ['terrified']);
});

t.test('hub appraise with no TEXT reads each line of standard input (blank lines skipped)', async (t) => {
  const child = spawn(...untraced(process.execPath, ['bin/run.js', 'appraise']), { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stdin.end('why is the sky blue?\n\nI miss you so much\n');
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.equal(code, 0);
  const lines = stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.same(
    lines.map(({ text, strongest }) => [text, strongest]),
    [
      ['why is the sky blue?', 'curiosity'],
      ['I miss you so much', 'sadness'],
    ],
  );
});

t.test('hub appraise: an over-long line is a JSON line naming it, the others are read, and the exit is 1 at the end', async (t) => {
  const child = spawn(...untraced(process.execPath, ['bin/run.js', 'appraise']), {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, MAX_MESSAGE_LENGTH: '20' },
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stdin.end(`I am so happy today\n${'!'.repeat(21)}\nI am terrified\n`);
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.equal(code, 1);
  const lines = stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.same(lines[1], { line: 2, error: 'longer than MAX_MESSAGE_LENGTH (21 > 20 characters)' });
  t.same([lines[0].reading, lines[2].reading], ['joy', 'fear']);
});

t.test('hub appraise -h shows the TEXT argument and --json', async (t) => {
  const { code, stdout } = await runBuiltCli(['appraise', '-h'], {});
  t.equal(code, 0);
  t.match(stdout, /\$ hub appraise \[TEXT\.\.\.\] \[--json\]/);
  t.match(stdout, /ARGUMENTS\n {2}\[TEXT\.\.\.\]/);
});

/**
 * Runs `hub appraise` with standard input written by `write` as it is read (backpressure honoured:
 * neither process holds the input whole); resolves with its exit, stdout and peak resident memory.
 */
async function appraiseStream(
  write: (input: NodeJS.WritableStream) => Promise<void>,
): Promise<{ code: number | null; stdout: string; maxRssBytes: number }> {
  // The child says its own peak as it exits, on stderr: VmHWM, its memory's high-water mark since
  // it started (getrusage's maxRSS would count this test process too, copied by the fork before the exec).
  const peak =
    'data:text/javascript,import{readFileSync,writeSync}from"node:fs";process.on("exit",()=>writeSync(2,`${/VmHWM:.*/.exec(readFileSync("/proc/self/status","utf8"))}\\n`))';
  // Only PATH and HOME: the test runner's NODE_OPTIONS (its loaders) would weigh on the child's memory.
  const child = spawn(...untraced(process.execPath, ['--import', peak, 'bin/run.js', 'appraise']), {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  await write(child.stdin);
  child.stdin.end();
  const code = await closed;
  const kib = /VmHWM:\s*(\d+) kB/.exec(stderr)?.[1];
  if (kib === undefined) throw new Error(`no peak memory reported: ${stderr}`);
  return { code, stdout, maxRssBytes: Number(kib) * 1024 };
}

/** Writes `piece` `times` times, waiting whenever the pipe is full. */
async function repeatInto(input: NodeJS.WritableStream, piece: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) if (!input.write(piece)) await once(input, 'drain');
}

const MB = 1024 * 1024;
const MEMORY_BOUND = 200 * MB;

t.test('hub appraise reads a 50 MB input in bounded memory: one 50 MB line is said too long, never held', async (t) => {
  const chunk = 'x'.repeat(64 * 1024);
  const { code, stdout, maxRssBytes } = await appraiseStream(async (input) => {
    input.write('I am so happy today\n');
    await repeatInto(input, chunk, (50 * MB) / chunk.length);
    input.write('\nI am terrified\n');
  });
  t.equal(code, 1, 'the over-long line makes the exit 1');
  const lines = stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.same(lines[1], { line: 2, error: `longer than MAX_MESSAGE_LENGTH (${50 * MB} > 4000 characters)` });
  t.same([lines[0].reading, lines[2].reading, lines.length], ['joy', 'fear', 3], 'the lines around it are read');
  t.ok(maxRssBytes < MEMORY_BOUND, `peak RSS ${(maxRssBytes / MB).toFixed(0)} MB, under 200 MB`);
});

t.test('hub appraise reads a 50 MB input of many lines in bounded memory, one line out per line in', async (t) => {
  // 5,120 lines of 10 KiB (each over the limit: said, not read, so the test stays quick), and a
  // message to read after every 64 of them.
  const long = `${'y'.repeat(10 * 1024 - 1)}\n`;
  const { code, stdout, maxRssBytes } = await appraiseStream(async (input) => {
    for (let block = 0; block < 80; block++) {
      await repeatInto(input, long, 64);
      if (!input.write('I miss you so much\n')) await once(input, 'drain');
    }
  });
  t.equal(code, 1);
  const lines = stdout.trimEnd().split('\n');
  t.equal(lines.length, 80 * 65, 'a line out for each line in');
  t.same(JSON.parse(lines[64]!), JSON.parse(lines.at(-1)!), 'the same message reads the same, first and last');
  t.match(JSON.parse(lines.at(-1)!), { text: 'I miss you so much', reading: 'sadness' });
  t.same(JSON.parse(lines.at(-2)!), { line: 80 * 65 - 1, error: 'longer than MAX_MESSAGE_LENGTH (10239 > 4000 characters)' });
  t.ok(maxRssBytes < MEMORY_BOUND, `peak RSS ${(maxRssBytes / MB).toFixed(0)} MB, under 200 MB`);
});
