import { displayUrl } from '../runtime/url-credentials.js';
import { HubConfigError } from './errors.js';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';

/** The hub's base URL: the explicit value, else `HF_ENDPOINT`, else huggingface.co, with no trailing `/`. */
export function resolveEndpoint(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  const fromEnv = env.HF_ENDPOINT?.trim();
  const raw = explicit?.trim() || fromEnv || DEFAULT_ENDPOINT;
  const endpoint = raw.replace(/\/+$/, '');
  let protocol: string;
  try {
    protocol = new URL(endpoint).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    const source = explicit?.trim() ? 'The endpoint option' : 'HF_ENDPOINT';
    throw new HubConfigError(`${source} must be an http(s) URL such as ${DEFAULT_ENDPOINT}, got "${displayUrl(raw)}"`);
  }
  return endpoint;
}
