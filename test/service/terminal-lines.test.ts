import t from 'tap';
import type { Test } from 'tap';
import { Bus } from '../../src/bus/bus.js';
import { loadChatConfig } from '../../src/config/chat-config.js';
import { fixedClock } from '../../src/runtime/clock.js';
import { narrateChats } from '../../src/service/chat-narrator.js';
import { announceReady } from '../../src/service/ready-announcer.js';
import { KEY_MISSING_WARNING, startupWarnings } from '../../src/service/startup-warnings.js';
import { eventually } from '../../testkit/eventually.js';
import { capturedLogger } from '../support/captured-logger.js';

// The service's own lines in the terminal: the warnings that hold, said last before "ready" and again
// every minute, and a few lines per chat.

const KEY = { LLM_API_KEY: 'sk-test-key' };

t.test('startup warnings: no key, frames on other origins, a bind beyond this machine; none on a Space', (t) => {
  t.same(startupWarnings(loadChatConfig(KEY)), [], 'the defaults with a key: nothing to say');
  t.same(startupWarnings(loadChatConfig({})), [KEY_MISSING_WARNING]);
  t.match(
    startupWarnings(loadChatConfig({ LLM_API_KEY: 'ollama' })),
    [/^LLM_API_KEY is shorter than 8 characters/],
    'a key under 8 characters: one warning',
  );
  t.same(startupWarnings(loadChatConfig({ LLM_API_KEY: 'sk-12345' })), [], '8 characters: none');
  t.match(KEY_MISSING_WARNING, /LLM_API_KEY is not set.*LLM_BASE_URL and LLM_MODEL for a server that is not OpenAI.*\/error/);
  t.match(startupWarnings(loadChatConfig({ ...KEY, HOST: '0.0.0.0' })), [
    /^listening on 0\.0\.0\.0, not only on this machine: .*HOST=127\.0\.0\.1/,
  ]);
  t.same(startupWarnings(loadChatConfig({ ...KEY, HOST: '127.0.0.2' })), [], 'a loopback address is this machine');
  t.same(startupWarnings(loadChatConfig({ ...KEY, HOST: 'localhost' })), []);
  t.match(startupWarnings(loadChatConfig({ ...KEY, FRAME_ANCESTORS: 'https://example.com' })), [
    /^the page may be shown in frames on https:\/\/example\.com \(FRAME_ANCESTORS\)/,
  ]);
  t.same(
    startupWarnings(loadChatConfig({ ...KEY, SPACE_ID: 'me/hub', FRAME_ANCESTORS: 'https://example.com' })),
    [],
    "on a Space the public bind and the Hub's frame are its design",
  );
  t.end();
});

function announcing(t: Test, warnings: string[], remindEveryMs?: number) {
  const bus = new Bus({ clock: fixedClock('2026-11-26T00:00:00Z') });
  const log = capturedLogger({ debug: true });
  const stop = announceReady({ bus, logger: log.logger, address: 'http://127.0.0.1:7860', warnings, remindEveryMs });
  t.teardown(() => {
    stop();
    bus.close();
  });
  return { bus, log, stop };
}

t.test('once the system settles: the warnings, then "ready" last', async (t) => {
  const { bus, log } = announcing(t, ['first warning', 'second warning']);
  bus.publish({ type: 'system.phase.changed', phase: 'initializing' });
  t.same(log.lines(), [], 'nothing while it initializes');
  bus.publish({ type: 'system.phase.changed', phase: 'keyMissing' });
  t.same(
    log.lines().map(({ level, msg }) => [level, msg]),
    [
      [40, 'first warning'],
      [40, 'second warning'],
      [30, 'ready: the page is at http://127.0.0.1:7860 (chat is off until LLM_API_KEY is set)'],
    ],
  );
  bus.publish({ type: 'system.phase.changed', phase: 'ready' });
  t.equal(log.lines().length, 3, 'said once');
});

t.test('the warnings come back every remindEveryMs while the process runs, until stopped', async (t) => {
  const { bus, log, stop } = announcing(t, ['no key'], 20);
  bus.publish({ type: 'system.phase.changed', phase: 'ready' });
  const said = () => log.lines().filter((line) => line.msg === 'no key').length;
  await eventually('the warning said three times', () => said() >= 3);
  t.equal(log.lines().filter((line) => String(line.msg).startsWith('ready')).length, 1, '"ready" once');
  stop();
  const after = said();
  // The stop clears the timer at once: nothing can be said after it, whatever the timing.
  t.equal(said(), after);
});

t.test('a failed start says nothing: its own fatal line is the last', async (t) => {
  const { bus, log } = announcing(t, ['no key'], 20);
  bus.publish({ type: 'system.phase.changed', phase: 'failed' });
  bus.publish({ type: 'system.phase.changed', phase: 'ready' });
  t.same(log.lines(), []);
});

t.test('a chat: accepted, read as, replied, committed; a refusal says why; no text', async (t) => {
  const bus = new Bus({ clock: fixedClock('2026-11-26T00:00:00Z') });
  const log = capturedLogger({ debug: true });
  const narration = narrateChats(bus, log.logger);
  t.teardown(() => {
    narration.unsubscribe();
    bus.close();
  });
  const emotions = { joy: 0.612, sadness: 0.1, anger: 0.05, fear: 0.12, curiosity: 0.4 };
  const sentiment = { sentiment: 'positive' as const, positive: 0.5, negative: 0 };
  const at = (seconds: number) => new Date(Date.parse('2026-11-26T00:00:00Z') + seconds * 1000).toISOString();
  bus.publish({ type: 'chat.accepted', correlationId: 'abc-1f', message: 'private words', session: 'h', stream: true });
  const appraisal = {
    emotions: { joy: 0.81, sadness: 0.02, anger: 0.03, fear: 0.01, curiosity: 0.05 },
    neutral: 0.08,
    strongest: 'joy' as const,
    cues: ['private'],
  };
  bus.publish({ type: 'sentiment.analyzed', correlationId: 'abc-1f', sentiment, score: 3, appraisal, preview: emotions });
  bus.publish({
    type: 'mood.changed',
    change: { kind: 'chat', correlationId: 'abc-1f', sentiment, appraisal, at: at(1.3) },
    emotions,
    avatarShape: 'Triangle',
    sentiment,
    lastUpdated: at(1.3),
  });
  bus.publish({
    type: 'chat.replied',
    correlationId: 'abc-1f',
    response: 'private reply',
    avatarShape: 'Triangle',
    emotions,
    appraisal,
    at: at(1.5),
  });
  bus.publish({
    type: 'chat.rejected',
    correlationId: 'abc-20',
    reason: 'provider_timeout',
    error: 'The language model did not answer in time',
  });
  t.same(
    log.lines().map(({ level, msg }) => [level, msg]),
    [
      [30, 'chat #1f accepted: 13 characters, streamed'],
      [30, 'chat #1f read as joy (joy 0.81, neutral 0.08; sentiment positive, score 3)'],
      [30, 'chat #1f committed: Triangle, joy 0.61, sadness 0.10, anger 0.05, fear 0.12, curiosity 0.40'],
      [30, 'chat #1f replied: 13 characters in 1.5 s'],
      [30, 'chat #20 refused (provider_timeout): The language model did not answer in time'],
    ],
  );
  t.notMatch(log.text(), 'private', 'no text of the message (its cue words neither) or the reply');
  const byModel = {
    ...appraisal,
    emotions: { ...appraisal.emotions, joy: 0.01, fear: 0.83 },
    strongest: 'fear' as const,
    source: 'model' as const,
  };
  bus.publish({
    type: 'mood.changed',
    change: { kind: 'chat', correlationId: 'abc-21', sentiment, appraisal: byModel, at: at(2) },
    emotions,
    avatarShape: 'Triangle',
    sentiment,
    lastUpdated: at(2),
  });
  t.equal(
    log.lines().at(-1)?.msg,
    'chat #21 committed (read by the model): Triangle, joy 0.61, sadness 0.10, anger 0.05, fear 0.12, curiosity 0.40',
    'APPRAISAL=model: whose reading moved the mood',
  );
  // What the second reader came to, and what its request took: the provider's token counts when it said them.
  bus.publish({
    type: 'appraisal.model.read',
    correlationId: 'abc-21',
    model: 'llama3.2',
    outcome: 'used',
    reading: 'fear',
    usage: { prompt: 88, completion: 31 },
  });
  bus.publish({ type: 'appraisal.model.read', correlationId: 'abc-22', model: 'llama3.2', outcome: 'used', reading: 'joy' });
  bus.publish({
    type: 'appraisal.model.read',
    correlationId: 'abc-23',
    model: 'llama3.2',
    outcome: 'failed',
    usage: { prompt: 88, completion: 4 },
  });
  bus.publish({ type: 'appraisal.model.read', correlationId: 'abc-24', model: 'llama3.2', outcome: 'late' });
  t.same(
    log
      .lines()
      .slice(-4)
      .map(({ msg }) => msg),
    [
      'chat #21 read as fear by the model llama3.2: 1 extra request, 88 prompt + 31 completion tokens',
      'chat #22 read as joy by the model llama3.2: 1 extra request, tokens not reported',
      "chat #23 read locally, the model llama3.2's reading failed: 1 extra request, 88 prompt + 4 completion tokens",
      "chat #24 read locally, the model llama3.2's reading came too late: 1 extra request, tokens not reported",
    ],
  );
});
