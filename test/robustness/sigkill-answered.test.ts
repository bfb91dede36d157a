import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { roundEmotions } from '../../src/emotions/model.js';
import { parseEmotionsFile } from '../../src/persistence/emotions-file.js';
import { seededRandom } from '../../src/runtime/random.js';
import { CookieJar } from '../support/cookie-jar.js';
import { serve, settledOver } from '../support/served-cli.js';
import { eventually } from '../../testkit/eventually.js';
import { healthy, listeningProvider } from '../../testkit/provider-stand-in.js';
import { testDir } from '../support/test-dir.js';

// Issue 20, "every answered chat is kept": the built `hub serve`, one visitor chatting without a
// pause, killed with SIGKILL. After each restart the mood is the mood of the last chat answered 200
// (or of the one whose answer the kill cut, if it was committed first), the emotions file says the
// same, the visitor's history holds every exchange answered before (as many as it keeps), and so
// does the next prompt. A kill comes once the run has answered chats, never after a fixed window
// (on a loaded machine such a window ended runs before the restarted service answered anything):
// on odd runs at a random moment of the chatting, on even ones just after an answer, with no chat
// in flight, where nothing excuses a mood other than the last answered one.
const KILLS = 8;
/** Chats each run answers before its kill: over the runs, more than the 10 exchanges a conversation keeps. */
const PER_RUN = 2;
/** The exchanges a conversation keeps (`DEFAULT_MEMORY_EXCHANGES`). */
const KEPT = 10;
const random = seededRandom(20);

t.test(`SIGKILL ${KILLS} times mid-conversation: the mood and the conversation are those of the last answered chat`, async (t) => {
  const provider = await listeningProvider(t, healthy('Noted.'));
  const dir = testDir(t);
  const emotionsFile = join(dir, 'emotions.json');
  const env = { LLM_API_KEY: 'sk-test-kill', LLM_BASE_URL: provider.baseURL, EMOTIONS_FILE: emotionsFile, DRIFT_INTERVAL_MS: '86400000' };
  let visitor: CookieJar | undefined;
  let lastAnswered: { message: string; emotions: object } | undefined;
  const answeredMessages: string[] = [];
  let cutInFlight = false;
  let exact = 0;
  let answered = 0;
  for (let run = 0; run <= KILLS; run += 1) {
    const child = serve(t, env);
    const address = await child.listening;
    await settledOver(address);
    visitor ??= new CookieJar(address);
    visitor.address = address;
    if (lastAnswered) {
      const status = (await (await fetch(`${address}/status`)).json()) as { emotions: object };
      const file = parseEmotionsFile(emotionsFile, readFileSync(emotionsFile, 'utf8'));
      t.same(roundEmotions(file.emotions), status.emotions, `run ${run}: the emotions file says what the service serves`);
      if (JSON.stringify(status.emotions) === JSON.stringify(lastAnswered.emotions)) exact += 1;
      else t.ok(cutInFlight, `run ${run}: a mood other than the last answered one only when a chat was cut in flight`);
      const history = (await (await visitor.fetch('/api/history')).json()) as { messages: { role: string; content: string }[] };
      const said = history.messages.filter((entry) => entry.role === 'user').map((entry) => entry.content);
      // A chat cut by a kill (this run's or an earlier one's) that the service committed takes one of
      // the kept places: it is in the history though its answer never came.
      const committedCuts = said.filter((message) => !answeredMessages.includes(message)).length;
      t.ok(committedCuts <= run, `run ${run}: at most one cut chat committed per kill (${committedCuts})`);
      const kept = answeredMessages.slice(-(KEPT - committedCuts));
      t.same(
        kept.filter((message) => !said.includes(message)),
        [],
        `run ${run}: every chat answered before the kill is in the history (the last ${kept.length})`,
      );
    }
    if (run === KILLS) {
      const next = await visitor.chat('one more, after the last restart');
      t.equal(next.status, 200);
      const prompt = provider.prompts.at(-1)!.messages.map((turn) => turn.content);
      t.ok(prompt.includes(lastAnswered!.message), 'the last answered exchange is in the next prompt after the restart');
      t.equal(prompt.length, 1 + 20 + 1, 'the system prompt, the last 10 exchanges, the message');
      child.kill('SIGTERM');
      t.equal(await child.exited, 0);
      break;
    }
    let stop = false;
    let answeredThisRun = 0;
    let refused: number | undefined;
    cutInFlight = false;
    const conversation = (async () => {
      for (let i = 0; !stop; i += 1) {
        const message = i % 2 ? `run ${run} chat ${i}: I love this, wonderful!` : `run ${run} chat ${i}: this is awful and sad`;
        cutInFlight = true;
        const answer = await visitor!.chat(message).catch(() => undefined);
        if (answer === undefined) return;
        cutInFlight = false;
        if (answer.status !== 200) {
          refused = answer.status;
          return;
        }
        lastAnswered = { message, emotions: answer.body.emotions };
        answeredMessages.push(message);
        answered += 1;
        answeredThisRun += 1;
      }
    })();
    await eventually(`run ${run}: ${PER_RUN} chats answered`, () => answeredThisRun >= PER_RUN || refused !== undefined, {
      timeoutMs: 60_000,
    });
    t.equal(refused, undefined, `run ${run}: every chat before the kill was answered 200`);
    if (run % 2 === 0) {
      // Just after an answer: the loop ends there, and the kill follows at once.
      stop = true;
      await conversation;
    } else {
      await sleep(random() * 300);
    }
    child.kill('SIGKILL');
    await child.exited;
    stop = true;
    await conversation;
    t.equal(child.signal(), 'SIGKILL', `run ${run} was killed`);
  }
  t.comment(`${answered} chats answered over ${KILLS} kills; ${exact} restarts came back with exactly the last answered mood`);
  t.ok(exact >= KILLS / 2, 'most restarts come back with exactly the last answered mood');
});
