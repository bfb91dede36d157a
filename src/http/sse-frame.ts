/**
 * One Server-Sent Events frame: an optional event name and id, then the data (JSON, one line) and
 * the blank line that ends it. Written by hand rather than by @fastify/sse's `send()` so that a
 * frame going to a thousand listeners is made once.
 */
export function sseFrame(data: string, event?: string, id?: number): string {
  return `${event === undefined ? '' : `event: ${event}\n`}${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`;
}

/** The frame id a client says it has seen last (`Last-Event-ID`): 0 when absent; `undefined` when it is no frame id. */
export function lastEventId(header: string | string[] | undefined): number | undefined {
  if (header === undefined || header === '') return 0;
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}
