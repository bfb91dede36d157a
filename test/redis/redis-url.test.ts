import t from 'tap';
import { isRedisUrl, redactRedisUrl } from '../../src/redis/redis-url.js';

t.test('a password (and a user name) never shows', async (t) => {
  t.equal(redactRedisUrl('redis://:hunter2@cache.internal:6379/0'), 'redis://:***@cache.internal:6379/0');
  t.equal(redactRedisUrl('rediss://app:hunter2@cache.internal:6380/2'), 'rediss://***:***@cache.internal:6380/2');
  t.equal(redactRedisUrl('redis://127.0.0.1:6379/0'), 'redis://127.0.0.1:6379/0', 'nothing to hide');
  t.equal(redactRedisUrl('not a url://user:pw@x'), 'not a url://***@x', 'text that is not a URL is hidden up to the @');
});

t.test('only redis:// and rediss:// URLs with a host are Redis URLs', async (t) => {
  t.ok(isRedisUrl('redis://127.0.0.1:6379/0'));
  t.ok(isRedisUrl('rediss://:pw@cache.internal:6380'));
  t.notOk(isRedisUrl('http://127.0.0.1:6379'));
  t.notOk(isRedisUrl('redis://'));
  t.notOk(isRedisUrl('127.0.0.1:6379'));
});
