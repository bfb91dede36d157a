import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HubConfigError } from './errors.js';

/** Where the hub's own tools (`hf auth login`) keep the token, following the same variables they read. */
export function tokenFilePath(env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  const expand = (path: string): string => (path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path);
  if (env.HF_TOKEN_PATH) return expand(env.HF_TOKEN_PATH);
  const hfHome = env.HF_HOME ? expand(env.HF_HOME) : join(env.XDG_CACHE_HOME ? expand(env.XDG_CACHE_HOME) : join(home, '.cache'), 'huggingface');
  return join(hfHome, 'token');
}

/** Line breaks and surrounding blanks are never part of a token; an empty result means "none". */
function clean(token: string | undefined): string | undefined {
  const cleaned = token?.replace(/[\r\n]/g, '').trim();
  return cleaned ? cleaned : undefined;
}

async function readTokenFile(path: string): Promise<string | undefined> {
  try {
    return clean(await readFile(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw new HubConfigError(`Cannot read the token file ${path}: ${(error as Error).message}`);
  }
}

/**
 * The token to send, in the order the hub's tools use: explicit, `HF_TOKEN`, `HUGGING_FACE_HUB_TOKEN`,
 * the token file. Webhook routes always need one, so finding none is an error that says how to fix it.
 */
export async function resolveToken(explicit: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  const path = tokenFilePath(env);
  const token = clean(explicit) ?? clean(env.HF_TOKEN) ?? clean(env.HUGGING_FACE_HUB_TOKEN) ?? (await readTokenFile(path));
  if (token === undefined) {
    throw new HubConfigError(
      'No Hugging Face token found. Pass one explicitly (--token, or the `token` option in the library), ' +
        `set HF_TOKEN, or save it in ${path} (\`hf auth login\` does this). ` +
        'Create a token at https://huggingface.co/settings/tokens.',
    );
  }
  return token;
}
