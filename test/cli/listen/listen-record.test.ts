import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { leftovers, ListenRecord, listenRecordPath, processRunning } from '../../../src/cli/listen/listen-record.js';
import { deliveryLine } from '../../../src/cli/listen/delivery-line.js';
import { samplePayload } from '../../../src/webhooks/sample-payloads.js';
import { testDir } from '../../support/test-dir.js';

const entry = (id: string, pid: number, endpoint = 'https://huggingface.co') => ({
  id,
  endpoint,
  pid,
  createdAt: '2026-11-23T09:00:00.000Z',
});

t.test('the record lives in the user cache dir: XDG_CACHE_HOME, else ~/.cache', (t) => {
  t.equal(listenRecordPath({ XDG_CACHE_HOME: '/c' }), '/c/emotion-hub/listen-webhooks.json');
  t.equal(listenRecordPath({ HOME: '/home/me' }), '/home/me/.cache/emotion-hub/listen-webhooks.json');
  t.end();
});

t.test('add and remove keep the others; a missing or broken file reads as empty', async (t) => {
  const dir = testDir(t, { broken: { 'listen-webhooks.json': '{not json' } });
  const record = new ListenRecord(join(dir, 'cache', 'emotion-hub', 'listen-webhooks.json'));
  t.same(await record.read(), []);
  await record.add(entry('a', 1));
  await record.add(entry('b', 2));
  await record.add(entry('a', 3));
  t.same(
    (await record.read()).map((e) => [e.id, e.pid]),
    [
      ['b', 2],
      ['a', 3],
    ],
  );
  await record.remove('b');
  t.same(JSON.parse(readFileSync(record.path, 'utf8')), [entry('a', 3)]);
  t.equal(statSync(record.path).mode & 0o777, 0o600, 'only the user reads it');
  t.same(await new ListenRecord(join(dir, 'broken', 'listen-webhooks.json')).read(), []);
  writeFileSync(record.path, '[{"id":"x","endpoint":"e","pid":1},{"nope":true}]');
  t.same(
    (await record.read()).map((e) => e.id),
    ['x'],
  );
});

t.test('leftovers: recorded on this hub, and their listen is gone', (t) => {
  const entries = [entry('mine-running', 10), entry('killed', 11), entry('other-hub', 12, 'http://127.0.0.1:1')];
  t.same(
    leftovers(entries, 'https://huggingface.co', (pid) => pid === 10).map((e) => e.id),
    ['killed'],
  );
  t.equal(processRunning(process.pid), true);
  t.equal(processRunning(2 ** 22 + 12345), false, 'a pid no process has');
  t.end();
});

t.test('the delivery line: time, scope:action, repository, status, milliseconds as the journal has them', (t) => {
  t.equal(
    deliveryLine(new Date('2026-11-23T09:14:03.512Z'), samplePayload('repo.content'), 201, 312.9),
    '09:14:03  repo.content:update  space Wauplin/gradio-user-history  → 201  312.9 ms',
  );
  t.end();
});
