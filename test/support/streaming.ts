import type { CookieJar } from './cookie-jar.js';

/** `POST /api/chat` asking for a stream. */
export function streamedChat(visitor: CookieJar, message: string, signal?: AbortSignal) {
  return visitor.fetch('/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message }),
    signal,
  });
}

/** A streamed `POST` to one of the chat routes (`/api/chat/edit`, `/api/chat/regenerate`). */
export function streamedTo(visitor: CookieJar, path: string, body: object = {}, signal?: AbortSignal) {
  return visitor.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
}
