import { displayUrl } from '../runtime/url-credentials.js';
import { HubConfigError } from './errors.js';

export const DEFAULT_HUB_URL = 'https://huggingface.co';

/**
 * The hub's base URL as a request prefix: `raw` without trailing `/`, refused unless http(s).
 * `source` names where the value came from (the `hubUrl` option, or the CLI's `HF_ENDPOINT`).
 */
export function hubBaseUrl(raw: string, source: string): string {
  const base = raw.trim().replace(/\/+$/, '');
  let protocol: string;
  try {
    protocol = new URL(base).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new HubConfigError(`${source} must be an http(s) URL such as ${DEFAULT_HUB_URL}, got "${displayUrl(raw.trim())}"`);
  }
  return base;
}
