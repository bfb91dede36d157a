/**
 * Messages of `length` characters (UTF-16 units, as MAX_MESSAGE_LENGTH counts) that cost a reader the
 * most: one word without a break, a run of `!`, an emoji flood, zalgo (a letter under a pile of
 * combining marks). The appraisal's test times them; the bench reports their cost per message.
 */
export function worstCaseMessages(length = 4000): Record<string, string> {
  const units = { 'one word': 'a', '! runs': '!', 'emoji flood': '😡', zalgo: 'z̷̡̛̖̗' };
  return Object.fromEntries(
    Object.entries(units).map(([name, unit]) => [name, unit.repeat(Math.ceil(length / unit.length)).slice(0, length)]),
  );
}
