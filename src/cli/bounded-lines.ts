/** One line of a stream: its text, or only its length when it was longer than the cap. */
export type BoundedLine = { readonly line: number; readonly text: string } | { readonly line: number; readonly tooLong: number };

/**
 * The lines of a text stream (`\n` or `\r\n` ends a line), each held only up to `max` characters:
 * the rest of a longer line is counted and dropped as it comes, so a 50 MB line costs no more
 * memory than a short one (readline would hold it whole). Lines are yielded as they end; the
 * stream is read no faster than they are taken.
 */
export async function* boundedLines(input: AsyncIterable<string>, max: number): AsyncGenerator<BoundedLine> {
  let line = 1;
  // The line so far while it fits (one character more: a `\r` before the `\n` is not the line's).
  let text = '';
  // Once the line is over the cap: its length so far, and whether it ended with `\r`.
  let skipped: number | undefined;
  let lastWasReturn = false;
  const take = (piece: string): void => {
    if (piece === '') return;
    lastWasReturn = piece.endsWith('\r');
    if (skipped !== undefined) skipped += piece.length;
    else if (text.length + piece.length <= max + 1) text += piece;
    else {
      skipped = text.length + piece.length;
      text = '';
    }
  };
  const end = (): BoundedLine => {
    const whole = lastWasReturn ? text.slice(0, -1) : text;
    const length = skipped === undefined ? whole.length : skipped - (lastWasReturn ? 1 : 0);
    const ended = length > max ? { line, tooLong: length } : { line, text: whole };
    line += 1;
    text = '';
    skipped = undefined;
    lastWasReturn = false;
    return ended;
  };
  let started = false;
  for await (const chunk of input) {
    let from = 0;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', from)) {
      take(chunk.slice(from, newline));
      yield end();
      from = newline + 1;
      started = false;
    }
    take(chunk.slice(from));
    if (from < chunk.length) started = true;
  }
  // A last line without its newline is still a line.
  if (started) yield end();
}
