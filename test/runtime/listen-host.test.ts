import t from 'tap';
import { listenHost } from '../../src/runtime/listen-host.js';

t.test('HOST wins; on a Space (SPACE_HOST or SPACE_ID) 0.0.0.0; else loopback', (t) => {
  t.equal(listenHost({}), '127.0.0.1');
  t.equal(listenHost({ SPACE_HOST: 'julien-c-hooks.hf.space' }), '0.0.0.0');
  t.equal(listenHost({ SPACE_ID: 'julien-c/hooks' }), '0.0.0.0');
  t.equal(listenHost({ SPACE_ID: 'julien-c/hooks', HOST: '127.0.0.1' }), '127.0.0.1', 'HOST is given: it is kept');
  t.equal(listenHost({ HOST: ' ::1 ' }), '::1');
  t.equal(listenHost({ HOST: ' ', SPACE_ID: ' ' }), '127.0.0.1', 'blank values count as unset');
  t.end();
});
