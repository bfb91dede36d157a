import t from 'tap';
import { formatFields, formatTable } from '../../src/cli/table.js';

t.test('columns are as wide as their widest cell, two spaces apart, no trailing blanks', (t) => {
  t.equal(
    formatTable(
      ['ID', 'URL'],
      [
        ['a', 'https://x'],
        ['long-id', ''],
      ],
    ),
    'ID       URL\na        https://x\nlong-id',
  );
  t.equal(formatTable(['ID', 'STATUS'], []), 'ID  STATUS');
  t.end();
});

t.test('fields align their values', (t) => {
  t.equal(
    formatFields([
      ['id', '1'],
      ['status', 'enabled'],
    ]),
    'id      1\nstatus  enabled',
  );
  t.end();
});
