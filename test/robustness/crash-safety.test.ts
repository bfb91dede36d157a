import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEventLog } from '../../src/bus/event-log-reader.js';
import { roundEmotions } from '../../src/emotions/model.js';
import { foldEvent } from '../../src/replay/fold-event.js';
import type { EmotionState } from '../../src/emotions/state.js';
import { parseEmotionsFile } from '../../src/persistence/emotions-file.js';
import { seededRandom } from '../../src/runtime/random.js';
import { serve, settledOver } from '../support/served-cli.js';
import { eventually } from '../../testkit/eventually.js';
import { listeningProvider } from '../../testkit/provider-stand-in.js';
import { testDir } from '../support/test-dir.js';

// docs/robustness.md, crash safety: `hub serve` in a child process, killed with SIGKILL
// at random moments during a burst of chats and a 5 ms drift, many times over
// one emotions file. Each run has its own event log.
//
// Why the file's state "existed": every run starts with `emotions.loaded`,
// and folding its log event by event (the project's replay fold) gives every
// state the actors held, in order. The persistence actor writes one of them
// (it may catch the emotions of a change before its avatar, which is the
// fold's state between those two events too). The log is buffered, so a kill
// can lose its tail while the file, written atomically, is newer: then the
// file is still a whole valid state and no older than the last logged one. A restart comes up with
// the embedded store's state, committed before each change took effect: never older than the file
// or the last logged state, and the file catches up with it at once.
const KILLS = 10;
const random = seededRandom(2026);

/** Every state along a run's log, the first one being what it loaded. */
async function statesOf(file: string): Promise<EmotionState[]> {
  const states: EmotionState[] = [];
  for await (const event of readEventLog(file, { allowTruncatedTail: true })) {
    if (states.length === 0 && event.type !== 'emotions.loaded') continue;
    states.push(foldEvent(states.at(-1) ?? (undefined as never), event));
  }
  return states;
}

t.test(`SIGKILL at random moments, ${KILLS} times: the file always parses, holds a state that existed, and restarts exactly`, async (t) => {
  const provider = await listeningProvider(t);
  const dir = testDir(t);
  const emotionsFile = join(dir, 'emotions.json');
  const env = { LLM_API_KEY: 'sk-test-crash', LLM_BASE_URL: provider.baseURL, EMOTIONS_FILE: emotionsFile, DEBUG: '0' };
  let persisted: EmotionState | undefined;
  let lastLogged: EmotionState | undefined;
  let exact = 0;
  let leftovers = 0;
  for (let run = 0; run < KILLS; run += 1) {
    const log = join(dir, `events-${run}.jsonl`);
    const child = serve(t, { ...env, EVENT_LOG: log, DRIFT_INTERVAL_MS: '5' });
    const address = await child.listening;
    t.match(await settledOver(address), { is_initialized: true }, `run ${run} comes up ready`);
    const chats = Array.from({ length: 1 + Math.floor(random() * 12) }, (_, i) =>
      fetch(`${address}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: i % 2 ? 'I love this, wonderful!' : 'this is awful and sad' }),
      }).catch(() => undefined),
    );
    // `emotions.loaded` is on disk (on a loaded machine the first buffer can go out before it); then a random moment.
    await eventually(
      `run ${run}'s emotions.loaded on disk`,
      () => existsSync(log) && readFileSync(log, 'utf8').includes('"type":"emotions.loaded"'),
      { intervalMs: 5 },
    );
    await new Promise((resolve) => setTimeout(resolve, random() * 120));
    child.kill('SIGKILL');
    await child.exited;
    await Promise.all(chats);
    t.equal(child.signal(), 'SIGKILL', `run ${run} was killed, it did not end on its own`);

    const states = await statesOf(log);
    t.ok(states.length > 0, `run ${run}'s log starts with the state it loaded`);
    if (persisted) {
      t.ok(states[0]!.lastUpdated >= persisted.lastUpdated, `run ${run} came up with a state no older than the file`);
      t.ok(states[0]!.lastUpdated >= lastLogged!.lastUpdated, `run ${run} came up with a state no older than the last one logged`);
    }
    lastLogged = states.at(-1);
    t.same(
      readdirSync(dir).filter((name) => name.includes('.tmp-') && !name.includes(`-${child.pid}-`)),
      [],
      `run ${run} cleared older runs' temporary files`,
    );
    // A kill between a temporary file's write and its rename leaves it behind; the next start removes it.
    leftovers += readdirSync(dir).filter((name) => name.includes('.tmp-')).length;
    if (!existsSync(emotionsFile)) {
      t.notOk(persisted, 'a file once written never disappears: only runs before the first write end without one');
      continue;
    }
    const state = parseEmotionsFile(emotionsFile, readFileSync(emotionsFile, 'utf8'));
    if (states.some((logged) => JSON.stringify(logged) === JSON.stringify(state))) exact += 1;
    else t.ok(state.lastUpdated >= states.at(-1)!.lastUpdated, `run ${run}: a state newer than the log's lost tail`);
    persisted = state;
  }
  t.comment(
    `${exact} of ${KILLS} files matched a logged state exactly, the others were newer than their log's tail; ${leftovers} temporary files left by kills`,
  );
  t.ok(persisted, 'something was persisted');
  t.ok(provider.calls.filter((call) => call.endsWith('/chat/completions')).length >= KILLS, 'the chats reached the provider');

  // The last restart, without drift: it serves exactly the file (caught up with the store), and a graceful stop keeps it.
  const last = serve(t, { ...env, EVENT_LOG: join(dir, 'events-last.jsonl'), DRIFT_INTERVAL_MS: '86400000' });
  const address = await last.listening;
  await settledOver(address);
  const loaded = parseEmotionsFile(emotionsFile, readFileSync(emotionsFile, 'utf8'));
  t.ok(loaded.lastUpdated >= persisted!.lastUpdated, 'the file is no older than before the restart');
  persisted = loaded;
  const status = (await (await fetch(`${address}/status`)).json()) as { emotions: object };
  t.same(status.emotions, roundEmotions(persisted!.emotions), 'the restarted service serves the persisted emotions');
  last.kill('SIGTERM');
  t.equal(await last.exited, 0);
  t.same(
    readdirSync(dir).filter((name) => name.includes('.tmp-')),
    [],
    'no temporary file is left at the end',
  );
  t.same(parseEmotionsFile(emotionsFile, readFileSync(emotionsFile, 'utf8')), persisted, 'a graceful stop writes the same state');
});
