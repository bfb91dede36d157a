import t from 'tap';
import type { BusEvent } from '../../../src/bus/events.js';
import { completion, completionStream } from '../../../testkit/provider-wire.js';
import { mockProviderHttp, mockedProvider } from '../../../testkit/provider-nock.js';
import { ofType } from '../../support/bus-events.js';
import { harness } from '../../support/harness.js';
import { SseReader } from '../../support/sse-client.js';
import { streamedChat, streamedTo } from '../../support/streaming.js';
import { modelList } from '../../../testkit/provider-wire.js';

mockProviderHttp(t, '127.0.0.1');

/** Whether a provider request is the second reader's (it asks for the appraisal's JSON schema). */
const isReading = (body: Record<string, unknown>) => body.response_format !== undefined;
const chatChanges = (events: BusEvent[]) => ofType(events, 'mood.changed').filter(({ change }) => change.kind === 'chat');
const FEARFUL = { joy: 0.05, sadness: 0.05, anger: 0.05, fear: 0.8, curiosity: 0, neutral: 0.05 };

t.test(
  'APPRAISAL=model: the chat model reads each message beside the reply; any failure of it falls back to the local reading',
  async (t) => {
    mockedProvider().models().reply(200, modelList());
    const { visitor, events, logs, exits, advance } = await harness(t, {
      system: 'real',
      served: true,
      env: { APPRAISAL: 'model', APPRAISAL_MODEL: 'reader-model', APPRAISAL_WAIT_MS: '1500', ON_MODEL_FAILURE: 'exit' },
    });
    const order: string[] = [];
    const provider = () => mockedProvider();
    const reply = (text: string) =>
      provider()
        .completions((body) => !isReading(body) && (order.push('reply'), true))
        .reply(200, completion(text));
    const reading = () => provider().completions((body) => isReading(body) && (order.push(`reading ${body.model}`), true));

    // 1. The model's reading is used: it moves the mood, and says so everywhere.
    provider()
      .completions((body) => !isReading(body) && (order.push('reply'), true))
      .reply(200, completionStream('Oh, ', 'lovely!'), { 'content-type': 'text/event-stream' });
    reading().reply(200, {
      ...completion(JSON.stringify(FEARFUL)),
      usage: { prompt_tokens: 88, completion_tokens: 31, total_tokens: 119 },
    });
    const response = await streamedChat(visitor, 'I am so happy today!');
    const reader = new SseReader(response.body!);
    await reader.done;
    const [done] = reader.data('done');
    t.same(order, ['reply', 'reading reader-model'], 'the reading is asked after the reply, never before');
    t.match(done.appraisal, { source: 'model', strongest: 'fear', reading: 'fear' });
    t.same(done.appraisal.cues, [], 'the local reading found joy: its cues are not the model’s');
    const [first] = chatChanges(events);
    t.match(first!.change, { appraisal: { source: 'model', strongest: 'fear' } }, 'the mood committed with the model’s reading');
    t.ok(first!.emotions.fear > first!.emotions.joy, 'the mood moved towards fear, not joy');
    const history = await (await visitor.fetch('/api/history')).json();
    t.equal(history.messages[0].appraisal.source, 'model');
    const why = await (await visitor.fetch('/api/mood/why')).json();
    t.match(why.changes.at(-1), { kind: 'chat', strongest: 'fear', source: 'model' });
    t.same(
      ofType(events, 'appraisal.model.read').map(({ outcome, model, reading, usage }) => ({ outcome, model, reading, usage })),
      [{ outcome: 'used', model: 'reader-model', reading: 'fear', usage: { prompt: 88, completion: 31 } }],
      'what the reading came to, with the provider’s token counts (what the log line says: test/service/terminal-lines.test.ts)',
    );

    // 2. Each failure of the second reader: the chat answers, with the local reading, and the service stays up.
    const failures: [string, () => void][] = [
      ['an HTTP error', () => reading().reply(500, { error: { message: 'overloaded' } })],
      ['invalid JSON', () => reading().reply(200, completion('joy, mostly'))],
      [
        'out-of-range numbers',
        () => reading().reply(200, completion('{"joy":1e999,"sadness":0,"anger":0,"fear":0,"curiosity":0,"neutral":0}')),
      ],
      [
        'a reading after the deadline',
        () =>
          reading()
            .delay(8000)
            .reply(200, completion(JSON.stringify(FEARFUL))),
      ],
    ];
    for (const [what, answer] of failures) {
      reply('Nice.');
      answer();
      const { status, body } = await visitor.chat('I am so happy today!');
      t.equal(status, 200, `${what}: the chat is answered`);
      t.equal(body.response, 'Nice.');
      const change = chatChanges(events).at(-1)!.change;
      t.match(change, { appraisal: { source: 'local', strongest: 'joy' } }, `${what}: the local reading is used`);
    }
    const lastHistory = await (await visitor.fetch('/api/history')).json();
    t.match(lastHistory.messages.at(-2).appraisal, { source: 'local', strongest: 'joy', cues: ['happy'] });
    t.same(
      ofType(events, 'appraisal.model.read').map(({ outcome }) => outcome),
      ['used', 'failed', 'failed', 'failed', 'late'],
      'each fallback said, with why',
    );
    t.equal(ofType(events, 'dialogue.failed').length, 0, 'never the model-failure policy');
    t.same(exits, [], 'ON_MODEL_FAILURE=exit did not end the service');
    const warnings = () => logs.filter((line) => line.level === 40 && /second reader/.test(String(line.msg)));
    t.equal(warnings().length, 1, 'four failures within a minute: one warning');
    t.match(warnings()[0]!.msg, /HTTP 500/);

    advance(60_000);
    reply('Nice.');
    reading().reply(502, { error: { message: 'down' } });
    await visitor.chat('hello again');
    t.equal(warnings().length, 2, 'a minute later, the next one');
    t.match(warnings()[1]!.msg, /and 3 more like it/);

    // 3. A regenerate is not read again, by either reader: the mood does not move.
    const before = chatChanges(events).length;
    const asked = order.length;
    provider()
      .completions((body) => !isReading(body) && (order.push('reply'), true))
      .reply(200, completionStream('Again.'), { 'content-type': 'text/event-stream' });
    const again = new SseReader((await streamedTo(visitor, '/api/chat/regenerate')).body!);
    await again.done;
    t.same(order.slice(asked), ['reply'], 'no reading asked');
    t.equal(chatChanges(events).length, before, 'nothing committed');
    t.notOk('appraisal' in again.data('done')[0], 'a regenerate carries no reading');
  },
);
