import { join } from 'node:path';
import t from 'tap';
import { HubConfigError } from '../../../src/hub/errors.js';
import { resolveToken, tokenFilePath } from '../../../src/cli/hub-access/token.js';
import { testDir } from '../../support/test-dir.js';

t.test('order: explicit, HF_TOKEN, HUGGING_FACE_HUB_TOKEN, then the token file', async (t) => {
  const dir = testDir(t, { token: 'hf_fromFile\n' });
  const env = { HF_TOKEN_PATH: join(dir, 'token'), HF_TOKEN: 'hf_fromEnv', HUGGING_FACE_HUB_TOKEN: 'hf_legacy' };
  t.equal(await resolveToken('hf_explicit', env), 'hf_explicit');
  t.equal(await resolveToken(undefined, env), 'hf_fromEnv');
  t.equal(await resolveToken(undefined, { ...env, HF_TOKEN: '' }), 'hf_legacy');
  t.equal(
    await resolveToken(undefined, { HF_TOKEN_PATH: env.HF_TOKEN_PATH }),
    'hf_fromFile',
    'the trailing newline is not part of the token',
  );
  t.equal(await resolveToken('  \n', { HF_TOKEN: ' hf_trimmed\r\n' }), 'hf_trimmed', 'blank values count as absent');
});

t.test(
  'the token file: HF_TOKEN_PATH, else $HF_HOME/token, else $XDG_CACHE_HOME/huggingface/token, else ~/.cache/huggingface/token',
  async (t) => {
    const dir = testDir(t, {
      hfhome: { token: 'hf_home' },
      xdg: { huggingface: { token: 'hf_xdg' } },
      home: { '.cache': { huggingface: { token: 'hf_default' } } },
    });
    t.equal(await resolveToken(undefined, { HF_HOME: join(dir, 'hfhome') }), 'hf_home');
    t.equal(await resolveToken(undefined, { XDG_CACHE_HOME: join(dir, 'xdg'), HOME: join(dir, 'home') }), 'hf_xdg');
    t.equal(await resolveToken(undefined, { HOME: join(dir, 'home') }), 'hf_default');
    t.equal(
      tokenFilePath({ HOME: '/home/ada', HF_TOKEN_PATH: '~/secrets/hf' }),
      '/home/ada/secrets/hf',
      '~ is expanded as the hub tools do',
    );
    t.equal(tokenFilePath({ HOME: '/home/ada', HF_HOME: '~' }), '/home/ada/token');
  },
);

t.test('no token anywhere: a HubConfigError that says how to provide one', async (t) => {
  const dir = testDir(t, {});
  const error = await resolveToken(undefined, { HOME: dir }).catch((e: unknown) => e);
  t.type(error, HubConfigError);
  const message = (error as Error).message;
  t.match(message, /No Hugging Face token found/);
  t.match(message, /--token/);
  t.match(message, /HF_TOKEN/);
  t.match(message, join(dir, '.cache', 'huggingface', 'token'));
});

t.test('a token path that is a folder counts as absent; an unreadable file is an error naming it', async (t) => {
  const dir = testDir(t, { folder: {}, file: 'x' });
  await t.rejects(resolveToken(undefined, { HF_TOKEN_PATH: join(dir, 'folder') }), { message: /No Hugging Face token found/ });
  await t.rejects(resolveToken(undefined, { HF_TOKEN_PATH: join(dir, 'file', 'token') }), { message: /No Hugging Face token found/ });
  await t.rejects(resolveToken(undefined, { HF_TOKEN_PATH: '\0bad' }), { name: 'HubConfigError', message: /Cannot read the token file/ });
});

t.test('HF_TOKEN_PATH and HF_HOME expand ~ and $VAR / ${VAR} as huggingface_hub does', async (t) => {
  const dir = testDir(t, { secrets: { token: 'hf_expanded' } });
  t.equal(tokenFilePath({ HOME: '/home/ada', HF_TOKEN_PATH: '$SECRETS/hf', SECRETS: '/run/secrets' }), '/run/secrets/hf');
  t.equal(tokenFilePath({ HOME: '/home/ada', HF_HOME: '${DATA}/hf', DATA: '/data' }), '/data/hf/token');
  t.equal(tokenFilePath({ HOME: '/home/ada', HF_HOME: '~/$SUB', SUB: 'x' }), '/home/ada/x/token', '~ first, then variables');
  t.equal(tokenFilePath({ HOME: '/home/ada', HF_TOKEN_PATH: '/a/$UNSET/b' }), '/a/$UNSET/b', 'an unknown variable stays as written');
  t.equal(await resolveToken(undefined, { HF_TOKEN_PATH: '$DIR/secrets/token', DIR: dir }), 'hf_expanded');
});

t.test('HF_HUB_DISABLE_IMPLICIT_TOKEN: only an explicit token counts, and the error says so', async (t) => {
  const dir = testDir(t, { token: 'hf_fromFile' });
  const env = { HF_HUB_DISABLE_IMPLICIT_TOKEN: 'yes', HF_TOKEN: 'hf_env', HF_TOKEN_PATH: join(dir, 'token') };
  t.equal(await resolveToken('hf_explicit', env), 'hf_explicit');
  await t.rejects(resolveToken(undefined, env), { name: 'HubConfigError', message: /HF_HUB_DISABLE_IMPLICIT_TOKEN is set/ });
  for (const value of ['0', 'false', 'no', '']) {
    t.equal(await resolveToken(undefined, { ...env, HF_HUB_DISABLE_IMPLICIT_TOKEN: value }), 'hf_env', `"${value}" is not true`);
  }
  for (const value of ['1', 'ON', 'True']) {
    await t.rejects(
      resolveToken(undefined, { ...env, HF_HUB_DISABLE_IMPLICIT_TOKEN: value }),
      { name: 'HubConfigError' },
      `"${value}" is true`,
    );
  }
});
