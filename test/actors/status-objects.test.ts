import t from 'tap';
import type { StatusReported } from '../../src/bus/events.js';
import { harness } from '../support/harness.js';
import { providerStandIn } from '../../testkit/provider-stand-in.js';

// The /api/avatar body cache (src/http/routes/avatar.ts, docs/performance.md) relies on this invariant
// of the real actor system: the status report hands out the same emotions and sentiment objects while
// the mood holds, and replaces them, never mutates them, when it changes.
t.test('status reports share the state objects until a change, which replaces them', async (t) => {
  const provider = providerStandIn();
  const { system, bus } = harness(t, { system: 'real', env: { LLM_API_KEY: 'sk-test' }, fetch: provider.fetch });
  system.start();
  t.equal(await system.settled(), 'ready');
  const status = () => bus.request({ type: 'status.requested' }, 'status.reported', 2000) as Promise<StatusReported>;
  const first = await status();
  const again = await status();
  t.equal(again.emotions, first.emotions, 'the same emotions object while nothing changed');
  t.equal(again.sentiment, first.sentiment, 'the same sentiment object while nothing changed');
  const before = structuredClone({ emotions: first.emotions, sentiment: first.sentiment });

  const reply = await bus.request(
    { type: 'chat.requested', session: 'visitor-a', message: 'I love this, wonderful!' },
    ['chat.replied', 'chat.rejected'],
    2000,
  );
  t.equal(reply.type, 'chat.replied');
  const after = await status();
  t.not(after.emotions, first.emotions, 'a change hands out new emotions');
  t.not(after.sentiment, first.sentiment, 'and a new sentiment');
  t.notSame(after.emotions, before.emotions, 'the mood did move');
  t.same({ emotions: first.emotions, sentiment: first.sentiment }, before, 'the objects handed out before were not mutated');
});
