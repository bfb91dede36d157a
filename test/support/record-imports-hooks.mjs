// The loader hooks of record-imports.mjs: each resolved module URL goes back to the main thread.
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  port.postMessage(result.url);
  return result;
}
