import { createHash, timingSafeEqual } from 'node:crypto';

/** The cookie that carries the token once the printed URL was opened, so that it leaves the address bar. */
export const TOKEN_COOKIE = 'hub_inspect';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Compares a presented token with the inspector's in constant time (digests of equal length, whatever was sent). */
export function tokenChecker(token: string): (presented: string | undefined) => boolean {
  const expected = digest(token);
  return (presented) => presented !== undefined && timingSafeEqual(digest(presented), expected);
}

/** The token a request presents: `?token=`, then the cookie, then `Authorization: Bearer`. */
export function presentedToken(query: unknown, cookie: string | undefined, authorization: string | undefined): string | undefined {
  const fromQuery = (query as { token?: unknown } | undefined)?.token;
  if (typeof fromQuery === 'string') return fromQuery;
  for (const part of cookie?.split(';') ?? []) {
    const [name, ...value] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join('='));
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return bearer?.[1];
}
