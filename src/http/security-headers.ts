import type { FastifyInstance } from 'fastify';

/**
 * The page loads only its own script and styles and talks only to this
 * service; saying so to the browser means that even a reply that slipped
 * into the DOM as HTML could run nothing and load nothing. Only the origins in
 * `frameAncestors` may show it in a frame (a Space: https://huggingface.co); none by default.
 * `styleNonce` admits the one `<style>` element that carries it; no style attribute is ever admitted.
 */
export function contentSecurityPolicy(frameAncestors: readonly string[] = [], styleNonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // The page's first paint: one inline <style> with the mood it opens with (src/http/first-paint.ts).
    styleNonce === undefined ? "style-src 'self'" : `style-src 'self' 'nonce-${styleNonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length === 0 ? "'none'" : frameAncestors.join(' ')}`,
  ].join('; ');
}

/** The policy when nobody may frame the page. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * The headers every answer of the chat service carries. `X-Frame-Options: DENY` says "no frames" to
 * browsers that predate `frame-ancestors`; where some origin may frame the page it is left out, as it
 * would forbid that frame too.
 */
export function securityHeaders(frameAncestors: readonly string[] = []): Readonly<Record<string, string>> {
  return {
    'content-security-policy': contentSecurityPolicy(frameAncestors),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...(frameAncestors.length === 0 ? { 'x-frame-options': 'DENY' } : {}),
  };
}

/** The headers when nobody may frame the page. */
export const SECURITY_HEADERS = securityHeaders();

export function installSecurityHeaders(app: FastifyInstance, frameAncestors: readonly string[] = []): void {
  const headers = securityHeaders(frameAncestors);
  // A callback hook, not an async one: it runs on every response, and a promise each time shows in the benchmark.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
