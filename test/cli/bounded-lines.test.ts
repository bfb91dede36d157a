import t from 'tap';
import { boundedLines, type BoundedLine } from '../../src/cli/bounded-lines.js';

async function* chunks(...pieces: string[]): AsyncGenerator<string> {
  yield* pieces;
}

const lines = async (max: number, ...pieces: string[]): Promise<BoundedLine[]> => {
  const all: BoundedLine[] = [];
  for await (const line of boundedLines(chunks(...pieces), max)) all.push(line);
  return all;
};

t.test('lines end at \\n or \\r\\n, wherever the chunks are cut; the last one needs no newline', async (t) => {
  const expected = [
    { line: 1, text: 'one' },
    { line: 2, text: '' },
    { line: 3, text: 'three' },
    { line: 4, text: 'four' },
  ];
  t.same(await lines(10, 'one\n\nthree\r\nfour'), expected);
  t.same(await lines(10, 'o', 'ne\n', '\nthree\r', '\nfo', 'ur'), expected, 'cut anywhere, a \\r\\n across two chunks included');
  t.same(await lines(10, 'one\n', '\nthree\r\nfour\n'), expected, 'a final newline adds no empty line');
  t.same(await lines(10), []);
});

t.test('a line over the cap is its length only, counted as it streams past; the next lines are read', async (t) => {
  t.same(await lines(5, 'abcde\nabcdef\nok'), [
    { line: 1, text: 'abcde' },
    { line: 2, tooLong: 6 },
    { line: 3, text: 'ok' },
  ]);
  t.same(
    await lines(5, 'ab', 'cdef', 'ghij'.repeat(1000), 'k\r', '\nok\n'),
    [
      { line: 1, tooLong: 4007 },
      { line: 2, text: 'ok' },
    ],
    'split over many chunks, its \\r\\n not counted',
  );
  t.same(await lines(5, 'abcde\r\n'), [{ line: 1, text: 'abcde' }], 'the cap with its \\r\\n: the \\r is not the line’s');
});
