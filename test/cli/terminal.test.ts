import { PassThrough } from 'node:stream';
import t from 'tap';
import { createTerminal, processTerminal } from '../../src/cli/terminal.js';

function streams(isTTY: boolean) {
  const input = Object.assign(new PassThrough(), { isTTY });
  const output = Object.assign(new PassThrough(), { isTTY });
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  return { input, output, written: () => written };
}

t.test('interactive only when both streams are terminals', (t) => {
  t.equal(createTerminal(streams(true).input, streams(true).output).interactive(), true);
  t.equal(createTerminal(streams(false).input, streams(true).output).interactive(), false);
  t.equal(createTerminal(streams(true).input, streams(false).output).interactive(), false);
  t.equal(typeof processTerminal.interactive(), 'boolean');
  t.end();
});

for (const [typed, expected] of [
  ['y\n', true],
  ['n\n', false],
  ['\n', false],
] as const) {
  t.test(`the @inquirer confirm prompt: ${JSON.stringify(typed)} → ${expected}`, async (t) => {
    const { input, output, written } = streams(true);
    const answer = createTerminal(input, output).confirm('Delete webhook abc?');
    output.once('data', () => setImmediate(() => input.write(typed)));
    t.equal(await answer, expected);
    t.match(written(), /Delete webhook abc\?/);
  });
}

t.test('Ctrl-C counts as no', async (t) => {
  const { input, output } = streams(true);
  const answer = createTerminal(input, output).confirm('Delete?');
  output.once('data', () => setImmediate(() => input.write('\u0003')));
  t.equal(await answer, false);
});
