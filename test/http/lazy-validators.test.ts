import Fastify from 'fastify';
import t from 'tap';
import { lazyValidators, type ValidatorFactory } from '../../src/http/lazy-validators.js';
import { createRequire } from 'node:module';

const ajvOptions = { customOptions: { coerceTypes: false } };
const body = { type: 'object', required: ['message'], properties: { message: { type: 'string', pattern: '\\S', maxLength: 5 } } };

/** Fastify's own compiler, counting how often it is created and how often it compiles a schema. */
function countingAjv() {
  const counts = { created: 0, compiled: 0 };
  const real = (createRequire(import.meta.url)('@fastify/ajv-compiler') as () => ValidatorFactory)();
  const load = (): ValidatorFactory => (externalSchemas, options) => {
    counts.created += 1;
    const compile = real(externalSchemas, options);
    return (route) => {
      counts.compiled += 1;
      return compile(route);
    };
  };
  return { counts, load };
}

function app(buildValidator?: ValidatorFactory) {
  const server = Fastify({
    ajv: ajvOptions,
    ...(buildValidator && { schemaController: { compilersFactory: { buildValidator: buildValidator as never } } }),
  });
  server.post('/a', { schema: { body } }, async (request) => request.body);
  server.post('/b', { schema: { body } }, async (request) => request.body);
  return server;
}

// The invariant the `hub serve` start row rests on: a start compiles no validator.
t.test('nothing is compiled at start; each route schema once, at its first request, with one Ajv', async (t) => {
  const { counts, load } = countingAjv();
  const server = app(lazyValidators(load));
  await server.ready();
  t.same(counts, { created: 0, compiled: 0 }, 'ready, and Ajv not even created');
  for (let i = 0; i < 3; i += 1) await server.inject({ method: 'POST', url: '/a', payload: { message: 'hi' } });
  t.same(counts, { created: 1, compiled: 1 });
  await server.inject({ method: 'POST', url: '/b', payload: { message: 'hi' } });
  t.same(counts, { created: 1, compiled: 2 }, 'the second route compiles its own schema with the same Ajv');
});

t.test('every answer is what Fastify gives with its own validators', async (t) => {
  const lazy = app(lazyValidators());
  const eager = app();
  const payloads = [
    { message: 'hi' },
    { message: 'too long' },
    { message: '  ' },
    { message: 5 },
    {},
    [],
    'text',
    { message: 'ok', extra: 1 },
  ];
  for (const payload of payloads) {
    const [got, want] = await Promise.all(
      [lazy, eager].map((server) => server.inject({ method: 'POST', url: '/a', payload: payload as object })),
    );
    t.same({ status: got!.statusCode, body: got!.json() }, { status: want!.statusCode, body: want!.json() }, JSON.stringify(payload));
  }
});
