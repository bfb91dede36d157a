import type { IncomingHttpHeaders } from 'node:http';

/** What decides the session cookie's attributes: whether the page may be framed, and by whom the request's scheme is told. */
export interface CookiePolicy {
  /** Some origin may frame the page (`FRAME_ANCESTORS`, or a Space). */
  readonly framable: boolean;
  /** Believe `X-Forwarded-Proto` without `TRUST_PROXY`: a Space's proxy always sets it. */
  readonly trustForwardedProto: boolean;
}

/** Not framed, nothing forwarded believed beyond `TRUST_PROXY`: today's `SameSite=Lax`. */
export const LAX_COOKIES: CookiePolicy = { framable: false, trustForwardedProto: false };

export interface SessionCookieAttributes {
  readonly sameSite: 'lax' | 'none';
  readonly secure: boolean;
  readonly partitioned: boolean;
}

/** The scheme the visitor used: Fastify's judgement (trusted proxies only), or the first `X-Forwarded-Proto` when the policy believes it. */
function cameOverHttps(policy: CookiePolicy, request: { readonly protocol: string; readonly headers: IncomingHttpHeaders }): boolean {
  if (request.protocol === 'https') return true;
  if (!policy.trustForwardedProto) return false;
  const forwarded = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

/**
 * A framed page's cookie must be `SameSite=None` to be sent at all inside the frame (the frame is
 * cross-site), which browsers accept only with `Secure`, so only over https; `Partitioned` keeps it
 * to this top-level site (CHIPS), so it still works where third-party cookies are blocked. Anywhere
 * else the cookie stays `SameSite=Lax`, `Secure` over https.
 */
export function sessionCookieAttributes(
  policy: CookiePolicy,
  request: { readonly protocol: string; readonly headers: IncomingHttpHeaders },
): SessionCookieAttributes {
  const https = cameOverHttps(policy, request);
  if (policy.framable && https) return { sameSite: 'none', secure: true, partitioned: true };
  return { sameSite: 'lax', secure: https, partitioned: false };
}
