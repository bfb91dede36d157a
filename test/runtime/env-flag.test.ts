import t from 'tap';
import { isTrue } from '../../src/runtime/env-flag.js';

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
