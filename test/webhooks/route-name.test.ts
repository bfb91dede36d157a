import t from 'tap';
import { WebhookRegistrationError } from '../../src/webhooks/errors.js';
import { routeName, routePath } from '../../src/webhooks/route-name.js';
import { WebhookRegistry } from '../../src/webhooks/registry.js';

t.test('the explicit name wins, without its slashes; else the function name', (t) => {
  function say_hello(): void {}
  t.equal(routeName('/explicit_name', say_hello), 'explicit_name');
  t.equal(routeName('explicit_name/', say_hello), 'explicit_name');
  t.equal(routeName('//a/b//', say_hello), 'a/b');
  t.equal(routeName(undefined, say_hello), 'say_hello');
  const onPush = (): void => {};
  t.equal(routeName(undefined, onPush), 'onPush', 'an arrow function takes its variable name');
  t.equal(routePath('say_hello'), '/webhooks/say_hello');
  t.end();
});

t.test('an anonymous handler, an empty or unsafe name is a clear error', (t) => {
  const anonymous = [(): void => {}][0]!;
  t.equal(anonymous.name, '');
  t.throws(() => routeName(undefined, anonymous), {
    name: 'WebhookRegistrationError',
    message: /anonymous function.*addWebhook\('\/my_webhook', handler\)/,
  });
  t.throws(() => routeName('/', anonymous), { message: 'Invalid webhook name "/": it is empty.' });
  t.throws(() => routeName('/a b', anonymous), { message: /Invalid webhook name "a b": use letters, digits/ });
  t.throws(() => routeName('a/../b', anonymous), { message: /Invalid webhook name "a\/..\/b"/ });
  t.throws(() => routeName('<script>', anonymous), { message: /Invalid webhook name/ });
  function handler(): void {}
  const bound = handler.bind(null);
  t.throws(
    () => routeName(undefined, bound),
    { message: /Invalid webhook name "bound handler".*give a name/ },
    'a bound function needs a name',
  );
  try {
    routeName(undefined, anonymous);
  } catch (error) {
    t.type(error, WebhookRegistrationError);
  }
  t.end();
});

t.test('the registry refuses a duplicate name and a non-function', (t) => {
  const registry = new WebhookRegistry();
  function on_commit(): void {}
  t.equal(registry.add(undefined, on_commit), 'on_commit');
  t.throws(() => registry.add('/on_commit', () => {}), {
    message: 'Webhook /webhooks/on_commit already exists: give each handler its own name.',
  });
  t.throws(() => registry.add(undefined, on_commit), { name: 'WebhookRegistrationError' });
  t.throws(() => registry.add('x', 'nope' as never), { message: 'A webhook handler must be a function, got string.' });
  t.throws(() => registry.add('x', null as never), { message: 'A webhook handler must be a function, got null.' });
  t.equal(registry.size, 1);
  t.equal(registry.get('on_commit'), on_commit);
  t.equal(registry.get('missing'), undefined);
  t.end();
});
