import t from 'tap';
import { requestIdOf, serverMessageOf } from '../../src/hub/error-response.js';

const none = new Headers();

t.test('the X-Error-Message header and the JSON body keys are collected, de-duplicated', (t) => {
  t.equal(serverMessageOf(new Headers({ 'x-error-message': 'Repo not found' }), '{"error":"Repo not found"}'), 'Repo not found');
  t.equal(serverMessageOf(none, '{"error":["a","b"],"error_description":"c"}'), 'a; b; c');
  t.equal(serverMessageOf(none, '{"message":"m","errors":[{"message":"e1"},null,{"other":1}]}'), 'm; e1');
  t.equal(serverMessageOf(none, '{"error":{"nested":true}}'), undefined, 'a non-string error says nothing');
  t.end();
});

t.test('plain text counts, HTML pages and empty bodies do not', (t) => {
  t.equal(serverMessageOf(none, '  Bad Gateway  '), 'Bad Gateway');
  t.equal(serverMessageOf(none, 'x'.repeat(900))?.length, 500, 'long text is cut');
  t.equal(serverMessageOf(none, '<html><body>502</body></html>'), undefined);
  t.equal(serverMessageOf(none, ''), undefined);
  t.equal(serverMessageOf(none, '42'), undefined);
  t.end();
});

t.test('request id: X-Request-Id, else the CDN trace ids', (t) => {
  t.equal(requestIdOf(new Headers({ 'x-request-id': 'a', 'x-amzn-trace-id': 'b' })), 'a');
  t.equal(requestIdOf(new Headers({ 'x-amzn-trace-id': 'Root=1-2' })), 'Root=1-2');
  t.equal(requestIdOf(new Headers({ 'x-amz-cf-id': 'cf' })), 'cf');
  t.equal(requestIdOf(none), undefined);
  t.end();
});
