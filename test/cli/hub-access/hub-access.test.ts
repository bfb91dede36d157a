import t from 'tap';
import { hubAccess, hubUrlFromEnv, isOffline } from '../../../src/cli/hub-access/hub-access.js';
import { HubConfigError, HubConnectionError, HubOfflineError } from '../../../src/hub/errors.js';

t.test('HF_ENDPOINT, else huggingface.co; trailing slashes go', (t) => {
  t.equal(hubUrlFromEnv({}), 'https://huggingface.co');
  t.equal(hubUrlFromEnv({ HF_ENDPOINT: 'http://127.0.0.1:5564//' }), 'http://127.0.0.1:5564');
  t.equal(hubUrlFromEnv({ HF_ENDPOINT: '  ' }), 'https://huggingface.co', 'a blank variable counts as unset');
  t.end();
});

t.test('an HF_ENDPOINT that is not an http(s) URL is a HubConfigError naming it', (t) => {
  t.throws(() => hubUrlFromEnv({ HF_ENDPOINT: 'huggingface.co' }), {
    name: 'HubConfigError',
    message: 'HF_ENDPOINT must be an http(s) URL such as https://huggingface.co, got "huggingface.co"',
  });
  t.throws(
    () => hubUrlFromEnv({ HF_ENDPOINT: 'hf_user:hf_zqtoken@huggingface.co' }),
    { message: /got "\[a URL that may hold credentials: not shown\]"$/ },
    'with an @ it may hold credentials: not shown',
  );
  t.end();
});

t.test('HF_HUB_OFFLINE, else TRANSFORMERS_OFFLINE when the first is unset or empty', (t) => {
  t.equal(isOffline({ HF_HUB_OFFLINE: '1' }), true);
  t.equal(isOffline({ HF_HUB_OFFLINE: '', TRANSFORMERS_OFFLINE: 'yes' }), true);
  t.equal(isOffline({ HF_HUB_OFFLINE: '0', TRANSFORMERS_OFFLINE: '1' }), false, 'the newer variable wins when set');
  t.equal(isOffline({}), false);
  t.end();
});

t.test('the options the CLI hands the library: the token and hub URL it resolved, and its fetch', async (t) => {
  const fetch = (async () => new Response('[]')) as typeof globalThis.fetch;
  t.same(await hubAccess(undefined, { HF_TOKEN: 'hf_env', HF_ENDPOINT: 'http://127.0.0.1:9/' }, fetch), {
    accessToken: 'hf_env',
    hubUrl: 'http://127.0.0.1:9',
    fetch,
  });
  t.same(await hubAccess('hf_flag', { HF_TOKEN: 'hf_env' }), { accessToken: 'hf_flag', hubUrl: 'https://huggingface.co' });
});

t.test('offline mode: a HubOfflineError before any token lookup, naming the hub but not its userinfo', async (t) => {
  for (const env of [{ HF_HUB_OFFLINE: '1' }, { HF_HUB_OFFLINE: 'TRUE' }, { TRANSFORMERS_OFFLINE: 'yes' }]) {
    // No token anywhere (HOME has none): offline still wins, as in huggingface_hub.
    const error = await hubAccess(undefined, { ...env, HOME: '/nonexistent-home' }).catch((e: unknown) => e);
    t.type(error, HubOfflineError);
    t.type(error, HubConnectionError, 'an offline client is a client that cannot reach the hub');
    t.match((error as Error).message, /^Cannot reach https:\/\/huggingface.co: offline mode is enabled\. .*HF_HUB_OFFLINE/);
  }
  const proxied = await hubAccess(undefined, { HF_HUB_OFFLINE: '1', HF_ENDPOINT: 'http://u:zq-pass@127.0.0.1:9' }).catch((e: Error) => e);
  t.notMatch((proxied as Error).message, 'zq-pass');
  t.same(await hubAccess(undefined, { HF_HUB_OFFLINE: '0', HF_TOKEN: 'hf_x' }), { accessToken: 'hf_x', hubUrl: 'https://huggingface.co' });
});

t.test('a bad HF_ENDPOINT is reported before the token', async (t) => {
  await t.rejects(hubAccess(undefined, { HF_ENDPOINT: 'ftp://x', HOME: '/nonexistent-home' }), {
    constructor: HubConfigError,
    message: /^HF_ENDPOINT must be/,
  });
});
