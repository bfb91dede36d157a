/** huggingface_hub's reading of a boolean variable: `1`, `ON`, `YES` or `TRUE`, in any case; anything else is false. */
export function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'ON', 'YES', 'TRUE'].includes(value.toUpperCase());
}

/** `HF_HUB_OFFLINE` (or the older `TRANSFORMERS_OFFLINE`, read only when the first is unset or empty). */
export function isOffline(env: NodeJS.ProcessEnv): boolean {
  return isTrue(env.HF_HUB_OFFLINE || env.TRANSFORMERS_OFFLINE);
}
