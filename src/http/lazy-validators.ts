import { createRequire } from 'node:module';

/** A compiled validator as Fastify calls it: `errors` is read after a `false`. */
export type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/** What Fastify hands a validator compiler for each route schema. */
export interface RouteSchema {
  readonly schema: unknown;
  readonly method: string;
  readonly url: string;
  readonly httpPart: string;
}

/** Fastify's `schemaController.compilersFactory.buildValidator`: shared schemas and Ajv options in, a compiler out. */
export type ValidatorFactory = (externalSchemas: unknown, ajvOptions: unknown) => (route: RouteSchema) => Validate;

const fastifyAjvCompiler = (): ValidatorFactory => (createRequire(import.meta.url)('@fastify/ajv-compiler') as () => ValidatorFactory)();

/**
 * Fastify's own validators (Ajv, with the app's `ajv` options), each compiled when it first checks
 * a request instead of at start: creating Ajv and compiling the chat's body schema was some 35 ms
 * of every start's first answer (the `hub serve` start row of `npm run bench`), and only a chat,
 * which then waits far longer on its model, needs it. Once compiled, each call is Ajv's.
 */
export function lazyValidators(load: () => ValidatorFactory = fastifyAjvCompiler): ValidatorFactory {
  return (externalSchemas, ajvOptions) => {
    let compiler: ((route: RouteSchema) => Validate) | undefined;
    return (route) => {
      let validate: Validate | undefined;
      // Two parameters, not a rest array: a chat's body check allocates nothing more than Ajv's own.
      const lazy: Validate = (data, context) => {
        if (validate === undefined) {
          compiler ??= load()(externalSchemas, ajvOptions);
          validate = compiler(route);
          // From now on Fastify passes the parent data that lets Ajv replace the root value, as to Ajv's own.
          lazy.schemaEnv = validate.schemaEnv;
        }
        const valid = validate(data, context);
        lazy.errors = validate.errors;
        return valid;
      };
      return lazy;
    };
  };
}
