import t from 'tap';
import { harness } from '../support/harness.js';
import { healthy, providerStandIn } from '../../testkit/provider-stand-in.js';

// An injected fetch carries every provider call (key validation and dialogue), with no network at all.
t.test('the providers are reached through the injected fetch', async (t) => {
  const provider = providerStandIn(healthy('Hello from the stand-in'));
  const { system, bus, exits } = harness(t, {
    system: 'real',
    env: { LLM_API_KEY: 'sk-test', LLM_BASE_URL: 'http://nowhere.invalid/v1' },
    fetch: provider.fetch,
  });
  system.start();
  t.equal(await system.settled(), 'ready');
  const reply = await bus.request(
    { type: 'chat.requested', session: 'visitor-a', message: 'hi there' },
    ['chat.replied', 'chat.rejected'],
    2000,
  );
  t.match(reply, { type: 'chat.replied', response: 'Hello from the stand-in' });
  t.same(provider.calls, ['GET /v1/models', 'POST /v1/chat/completions'], 'one validation serves both providers, then one completion');
  t.same(exits, [], 'the system never asked to exit');
});
