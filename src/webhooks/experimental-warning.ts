import { isTrue } from '../runtime/env-flag.js';

let warned = false;

/** huggingface_hub's wording, so the same variable silences both. */
export const EXPERIMENTAL_MESSAGE =
  "'WebhooksServer' is experimental and might be subject to breaking changes in the future without prior notice. " +
  'You can disable this warning by setting `HF_HUB_DISABLE_EXPERIMENTAL_WARNING=1` as environment variable.';

/** Emits the experimental-feature warning once per process, unless the environment silences it. */
export function warnExperimental(env: NodeJS.ProcessEnv = process.env): void {
  if (warned || isTrue(env.HF_HUB_DISABLE_EXPERIMENTAL_WARNING)) return;
  warned = true;
  process.emitWarning(EXPERIMENTAL_MESSAGE, 'ExperimentalWarning');
}
