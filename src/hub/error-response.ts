// Reading the hub's explanation out of an error response, the way the hub's own clients do.

const MAX_TEXT = 500;

/** A `Headers` object, or anything else that reads a header by name. */
export type HeaderReader = { get(name: string): string | null };

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

function fromJson(body: Record<string, unknown>): string[] {
  const errors = Array.isArray(body.errors) ? body.errors : [];
  return [
    ...strings(body.error),
    ...strings(body.error_description),
    ...strings(body.message),
    ...errors.flatMap((item) => strings((item as { message?: unknown } | null)?.message)),
  ];
}

/**
 * The `X-Error-Message` header, then the JSON body's `error` (string or list), `error_description`,
 * `message` and `errors[].message`; a plain-text body counts as the message, an HTML page does not.
 */
export function serverMessageOf(headers: HeaderReader, text: string): string | undefined {
  const pieces = strings(headers.get('x-error-message') ?? undefined);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (json !== null && typeof json === 'object') pieces.push(...fromJson(json as Record<string, unknown>));
  else if (json === undefined && text.trim() && !/^\s*</.test(text)) pieces.push(text.trim().slice(0, MAX_TEXT));
  const unique = [...new Set(pieces.map((piece) => piece.trim()).filter(Boolean))];
  return unique.length > 0 ? unique.join('; ') : undefined;
}

/** The request id the hub (or the CDN in front of it) put on the response. */
export function requestIdOf(headers: HeaderReader): string | undefined {
  return headers.get('x-request-id') ?? headers.get('x-amzn-trace-id') ?? headers.get('x-amz-cf-id') ?? undefined;
}
