import t from 'tap';
import { isRedisUrl } from '../../src/config/redis-url.js';

t.test('only redis:// and rediss:// URLs with a host are Redis URLs', async (t) => {
  t.ok(isRedisUrl('redis://127.0.0.1:6379/0'));
  t.ok(isRedisUrl('rediss://:pw@cache.internal:6380'));
  t.notOk(isRedisUrl('http://127.0.0.1:6379'));
  t.notOk(isRedisUrl('redis://'));
  t.notOk(isRedisUrl('127.0.0.1:6379'));
});
