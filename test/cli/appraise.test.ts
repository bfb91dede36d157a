import { spawn } from 'node:child_process';
import t from 'tap';
import { ROOT, requireBuilt, runBuiltCli } from '../support/built-cli.js';

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
  const child = spawn(process.execPath, ['bin/run.js', 'appraise'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
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
  const child = spawn(process.execPath, ['bin/run.js', 'appraise'], {
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
