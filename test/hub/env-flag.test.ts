import t from 'tap';
import { isOffline, isTrue } from '../../src/hub/env-flag.js';

t.test("huggingface_hub's reading of a boolean variable, the one every HF_HUB_* flag goes through", (t) => {
  t.same(['1', 'on', 'YES', 'True', 'true', '0', 'no', 'false', '', ' 1'].map(isTrue), [
    true,
    true,
    true,
    true,
    true,
    false,
    false,
    false,
    false,
    false,
  ]);
  t.equal(isTrue(undefined), false);
  t.end();
});

t.test('HF_HUB_OFFLINE, else TRANSFORMERS_OFFLINE when the first is unset or empty', (t) => {
  t.equal(isOffline({ HF_HUB_OFFLINE: '1' }), true);
  t.equal(isOffline({ HF_HUB_OFFLINE: '', TRANSFORMERS_OFFLINE: 'yes' }), true);
  t.equal(isOffline({ HF_HUB_OFFLINE: '0', TRANSFORMERS_OFFLINE: '1' }), false, 'the newer variable wins when set');
  t.equal(isOffline({}), false);
  t.end();
});
