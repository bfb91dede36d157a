import t from 'tap';
import { DEFAULT_ENDPOINT, resolveEndpoint } from '../../src/hub/endpoint.js';

t.test('explicit, else HF_ENDPOINT, else huggingface.co; trailing slashes go', (t) => {
  t.equal(resolveEndpoint(undefined, {}), DEFAULT_ENDPOINT);
  t.equal(resolveEndpoint(undefined, { HF_ENDPOINT: 'http://127.0.0.1:5564//' }), 'http://127.0.0.1:5564');
  t.equal(resolveEndpoint('https://hub-ci.huggingface.co/', { HF_ENDPOINT: 'http://127.0.0.1:1' }), 'https://hub-ci.huggingface.co');
  t.equal(resolveEndpoint(undefined, { HF_ENDPOINT: '  ' }), DEFAULT_ENDPOINT, 'a blank variable counts as unset');
  t.end();
});

t.test('an endpoint that is not an http(s) URL is a HubConfigError naming its source', (t) => {
  t.throws(() => resolveEndpoint(undefined, { HF_ENDPOINT: 'huggingface.co' }), {
    name: 'HubConfigError',
    message: 'HF_ENDPOINT must be an http(s) URL such as https://huggingface.co, got "huggingface.co"',
  });
  t.throws(
    () => resolveEndpoint(undefined, { HF_ENDPOINT: 'hf_user:hf_zqtoken@huggingface.co' }),
    { message: /got "\[a URL that may hold credentials: not shown\]"$/ },
    'with an @ it may hold credentials: not shown',
  );
  t.throws(() => resolveEndpoint('ftp://example.com', {}), {
    message: /^The endpoint option must be an http\(s\) URL.*"ftp:\/\/example.com"/,
  });
  t.end();
});
