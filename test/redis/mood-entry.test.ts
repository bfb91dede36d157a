import t from 'tap';
import { decodeMoodEntry, encodeMoodChange, STREAM_START } from '../../src/redis/mood-entry.js';

const at = '2026-11-23T09:00:00.000Z';
const chat = { kind: 'chat', correlationId: 'c', sentiment: { sentiment: 'positive', positive: 0.4, negative: 0 }, at } as const;
const entry = (seq: string, change: string): [string, string[]] => ['1795459231000-0', ['seq', seq, 'change', change]];

t.test('an entry the service wrote decodes to its change and position', (t) => {
  t.same(decodeMoodEntry(entry('7', encodeMoodChange(chat)), STREAM_START), { position: { id: '1795459231000-0', seq: 7 }, change: chat });
  t.end();
});

t.test('an entry out of range or of another shape is refused, naming the field, and keeps its number', (t) => {
  const cases: [string, string, RegExp][] = [
    [
      'sentiment 1e308',
      encodeMoodChange({ ...chat, sentiment: { ...chat.sentiment, positive: 1e308 } }),
      /\/sentiment\/positive must be <= 1/,
    ],
    ['a time that is not a date', encodeMoodChange({ ...chat, at: 'not a date' }), /\/at must match format "date-time"/],
    [
      'a delta beyond 1',
      JSON.stringify({ kind: 'drift', deltas: { joy: -2, sadness: 0, anger: 0, fear: 0, curiosity: 0 }, at }),
      /\/deltas\/joy must be >= -1/,
    ],
    [
      'a missing field',
      JSON.stringify({ kind: 'chat', sentiment: chat.sentiment, at }),
      /\/correlationId: required|must have required properties correlationId/,
    ],
    ['an unknown kind', JSON.stringify({ kind: 'mystery', at }), /\/kind must be one of chat, drift, snapshot/],
    ['not JSON', '{', /its change is not JSON/],
  ];
  for (const [name, change, reason] of cases) {
    const decoded = decodeMoodEntry(entry('3', change), STREAM_START);
    t.match(decoded, { position: { seq: 3 }, refused: reason }, name);
    t.notOk('change' in decoded, `${name}: nothing to apply`);
  }
  t.end();
});

t.test('an entry without a readable number is refused and takes the next one', (t) => {
  t.match(decodeMoodEntry(entry('x', encodeMoodChange(chat)), { id: '1-0', seq: 4 }), {
    position: { id: '1795459231000-0', seq: 5 },
    refused: /its number "x" is not an entry number/,
  });
  t.end();
});
