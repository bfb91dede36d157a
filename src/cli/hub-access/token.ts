import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cleanToken as clean } from '../../hub/access-token.js';
import { HubConfigError } from '../../hub/errors.js';
import { isTrue } from '../../runtime/env-flag.js';

/** `~` then `$VAR`/`${VAR}`, as Python's `expanduser` and `expandvars` do; an unknown variable stays as written. */
export function expandPath(path: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  const user = path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path;
  return user.replace(
    /\$(\w+)|\$\{([^}]+)\}/g,
    (match, bare: string | undefined, braced: string | undefined) => env[(bare ?? braced) as string] ?? match,
  );
}

/** Where the hub's own tools (`hf auth login`) keep the token, following the same variables they read. */
export function tokenFilePath(env: NodeJS.ProcessEnv): string {
  if (env.HF_TOKEN_PATH) return expandPath(env.HF_TOKEN_PATH, env);
  const cache = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(expandPath(env.HF_HOME || join(cache, 'huggingface'), env), 'token');
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
 * the token file. With `HF_HUB_DISABLE_IMPLICIT_TOKEN` set only an explicit token counts. Webhook
 * routes always need one, so finding none is an error that says how to fix it.
 */
export async function resolveToken(explicit: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  const given = clean(explicit);
  if (given !== undefined) return given;
  if (isTrue(env.HF_HUB_DISABLE_IMPLICIT_TOKEN)) {
    // huggingface_hub would send the request without a token; the webhook routes can only answer 401 to it.
    throw new HubConfigError(
      'HF_HUB_DISABLE_IMPLICIT_TOKEN is set, so HF_TOKEN and the token file are not used: pass a token explicitly ' +
        '(--token, or the `token` option in the library), or unset HF_HUB_DISABLE_IMPLICIT_TOKEN.',
    );
  }
  const path = tokenFilePath(env);
  const token = clean(env.HF_TOKEN) ?? clean(env.HUGGING_FACE_HUB_TOKEN) ?? (await readTokenFile(path));
  if (token === undefined) {
    throw new HubConfigError(
      'No Hugging Face token found. Pass one explicitly (--token, or the `token` option in the library), ' +
        `set HF_TOKEN, or save it in ${path} (\`hf auth login\` does this). ` +
        'Create a token at https://huggingface.co/settings/tokens.',
    );
  }
  return token;
}
