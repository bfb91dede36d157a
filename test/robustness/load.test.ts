import t from 'tap';
import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { join } from 'node:path';
import { replayEventLog } from '../../src/replay/replay.js';
import { parseEmotionsFile } from '../../src/persistence/emotions-file.js';
import { startRealService } from '../support/real-service.js';
import { completion, modelList } from '../../testkit/provider-wire.js';
import { mockProviderHttp, mockedProvider } from '../../testkit/provider-nock.js';

// docs/robustness.md, load: 200 keep-alive clients poll /api/avatar once a second, as
// the page does, for 3 s while chats and a fast drift change the emotions.
mockProviderHttp(t, '127.0.0.1');

const CLIENTS = 200;
const POLLS = 3;
const CHATS = 30;
const PERIOD_MS = 1000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test(`${CLIENTS} keep-alive clients poll the avatar while ${CHATS} chats run: no error, and the log replays to the file`, async (t) => {
  mockedProvider().models().reply(200, modelList());
  mockedProvider().completions().times(CHATS).delay(20).reply(200, completion('Thanks for telling me.'));
  const warnings: string[] = [];
  const warned = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', warned);
  t.teardown(() => process.off('warning', warned));
  const service = await startRealService(t, { LLM_API_KEY: 'sk-test-load', DRIFT_INTERVAL_MS: '50' });
  t.match(await service.settled(), { is_initialized: true });
  const { hostname, port } = new URL(service.service.address);
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  t.teardown(() => agent.destroy());

  const statuses = new Map<number, number>();
  const errors: string[] = [];
  const poll = () =>
    new Promise<void>((resolve) => {
      get({ agent, hostname, port, path: '/api/avatar' }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          statuses.set(response.statusCode!, (statuses.get(response.statusCode!) ?? 0) + 1);
          if (typeof (JSON.parse(body) as { emotions?: unknown }).emotions !== 'object') errors.push(`no emotions in ${body}`);
          resolve();
        });
      }).on('error', (error) => {
        errors.push(error.message);
        resolve();
      });
    });
  // Each client polls on its own second, offset at random within the first, like pages opened at different moments.
  const client = async () => {
    await pause(Math.random() * PERIOD_MS);
    for (let i = 0; i < POLLS; i += 1) await Promise.all([poll(), pause(PERIOD_MS)]);
  };
  const chats = async () => {
    const replies: number[] = [];
    for (let i = 0; i < CHATS; i += 1) {
      replies.push((await service.chat({ message: i % 3 ? 'I am happy and grateful' : 'this is terrible' })).status);
      await pause((POLLS * PERIOD_MS) / CHATS / 2);
    }
    return replies;
  };
  const started = Date.now();
  const [replies] = await Promise.all([chats(), ...Array.from({ length: CLIENTS }, client)]);
  t.comment(`${CLIENTS * POLLS} polls and ${CHATS} chats in ${Date.now() - started} ms`);

  t.same(errors, [], 'no client error');
  t.same([...statuses], [[200, CLIENTS * POLLS]], 'every poll answered 200');
  t.same(replies, Array(CHATS).fill(200), 'every chat answered 200');

  await service.service.close();
  const persisted = parseEmotionsFile('emotions.json', readFileSync(join(service.dir, 'emotions.json'), 'utf8'));
  t.same(await replayEventLog(join(service.dir, 'events.jsonl')), persisted, 'replaying the event log gives exactly the persisted state');
  t.same(service.exits, []);
  // One chat after another must not pile listeners up anywhere (it did on the dialogue's abort signal).
  t.same(warnings, [], 'no process warning, such as a listener leak');
});
