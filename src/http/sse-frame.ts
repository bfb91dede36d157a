/**
 * One Server-Sent Events frame: an optional event name and id, then the data (JSON, one line) and
 * the blank line that ends it. Written by hand rather than by @fastify/sse's `send()` so that a
 * frame going to a thousand listeners is made once.
 */
export function sseFrame(data: string, event?: string, id?: number): string {
  return `${event === undefined ? '' : `event: ${event}\n`}${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`;
}
