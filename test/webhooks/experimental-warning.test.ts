import t from 'tap';
// Each test file runs in its own process: nothing has warned before this test.
import { warnExperimental } from '../../src/webhooks/experimental-warning.js';

t.test('the experimental warning is emitted once per process, unless silenced', async (t) => {
  const warnings: Error[] = [];
  const listener = (warning: Error): void => void warnings.push(warning);
  process.on('warning', listener);
  t.teardown(() => void process.off('warning', listener));

  warnExperimental({ HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '1' });
  warnExperimental({ HF_HUB_DISABLE_EXPERIMENTAL_WARNING: 'TRUE' });
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(warnings.length, 0, 'silenced by the Hub tools variable');
  warnExperimental({});
  warnExperimental({ HF_HUB_DISABLE_EXPERIMENTAL_WARNING: '0' });
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(warnings.length, 1, 'once only');
  t.match(warnings[0], { name: 'ExperimentalWarning', message: /'WebhooksServer' is experimental/ });
});
