import { readFileSync } from 'node:fs';

let userAgent: string | undefined;

/**
 * `emotion-hub/<version>; node/<version>`, like the `hf_hub/<ver>; python/<ver>` of huggingface_hub.
 * package.json is read at the first hub request, not at import, so that loading the client costs nothing.
 */
export function hubUserAgent(): string {
  if (userAgent === undefined) {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    userAgent = `emotion-hub/${version}; node/${process.versions.node}`;
  }
  return userAgent;
}
