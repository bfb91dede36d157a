import { HubOfflineError } from '../../hub/errors.js';
import type { HubFetch, HubOptions } from '../../hub/hub-options.js';
import { DEFAULT_HUB_URL, hubBaseUrl } from '../../hub/hub-url.js';
import { isTrue } from '../../runtime/env-flag.js';
import { withoutCredentials } from '../../runtime/url-credentials.js';
import { resolveToken } from './token.js';

/** `HF_HUB_OFFLINE` (or the older `TRANSFORMERS_OFFLINE`, read only when the first is unset or empty). */
export function isOffline(env: NodeJS.ProcessEnv): boolean {
  return isTrue(env.HF_HUB_OFFLINE || env.TRANSFORMERS_OFFLINE);
}

/** The hub's base URL: `HF_ENDPOINT`, else huggingface.co (a blank variable counts as unset). */
export function hubUrlFromEnv(env: NodeJS.ProcessEnv): string {
  return hubBaseUrl(env.HF_ENDPOINT?.trim() || DEFAULT_HUB_URL, 'HF_ENDPOINT');
}

/**
 * What the CLI hands every hub call, read from the environment as the hub's own tools read it, in
 * their order: the base URL, then offline mode (huggingface_hub's `OfflineModeIsEnabled`, before any
 * token lookup or request), then the token (`--token`, `HF_TOKEN`, …, the token file).
 */
export async function hubAccess(explicitToken: string | undefined, env: NodeJS.ProcessEnv, fetch?: HubFetch): Promise<HubOptions> {
  const hubUrl = hubUrlFromEnv(env);
  if (isOffline(env)) {
    throw new HubOfflineError(
      `Cannot reach ${withoutCredentials(hubUrl)}: offline mode is enabled. To disable it, unset the HF_HUB_OFFLINE environment variable.`,
    );
  }
  return { accessToken: await resolveToken(explicitToken, env), hubUrl, ...(fetch !== undefined && { fetch }) };
}
