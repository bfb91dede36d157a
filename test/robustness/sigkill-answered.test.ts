import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { roundEmotions } from '../../src/emotions/model.js';
import { parseEmotionsFile } from '../../src/persistence/emotions-file.js';
import { seededRandom } from '../../src/runtime/random.js';
import { CookieJar } from '../support/cookie-jar.js';
import { serve, settledOver } from '../support/served-cli.js';
import { healthy, listeningProvider } from '../../testkit/provider-stand-in.js';

// Issue 20, "every answered chat is kept": the built `hub serve`, one visitor chatting without a
// pause, killed with SIGKILL at random moments. After each restart the mood is the mood of the last
// chat answered 200 (or of the one whose answer the kill cut, if it was committed first), the
// emotions file says the same, and the visitor's next prompt holds every exchange answered before.
const KILLS = 8;
const random = seededRandom(20);

t.test(`SIGKILL ${KILLS} times mid-conversation: the mood and the conversation are those of the last answered chat`, async (t) => {
  const provider = await listeningProvider(t, healthy('Noted.'));
  const dir = t.testdir();
  const emotionsFile = join(dir, 'emotions.json');
  const env = { LLM_API_KEY: 'sk-test-kill', LLM_BASE_URL: provider.baseURL, EMOTIONS_FILE: emotionsFile, DRIFT_INTERVAL_MS: '86400000' };
  let visitor: CookieJar | undefined;
  let lastAnswered: { message: string; emotions: object } | undefined;
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
    cutInFlight = false;
    const conversation = (async () => {
      for (let i = 0; !stop; i += 1) {
        const message = i % 2 ? `run ${run} chat ${i}: I love this, wonderful!` : `run ${run} chat ${i}: this is awful and sad`;
        cutInFlight = true;
        const answer = await visitor!.chat(message).catch(() => undefined);
        if (answer === undefined) return;
        cutInFlight = false;
        if (answer.status !== 200) return;
        lastAnswered = { message, emotions: answer.body.emotions };
        answered += 1;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50 + random() * 300));
    child.kill('SIGKILL');
    await child.exited;
    stop = true;
    await conversation;
    t.equal(child.signal(), 'SIGKILL', `run ${run} was killed`);
  }
  t.comment(`${answered} chats answered over ${KILLS} kills; ${exact} restarts came back with exactly the last answered mood`);
  t.ok(exact >= KILLS / 2, 'most restarts come back with exactly the last answered mood');
});
