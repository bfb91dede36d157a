/** The weight an `Accept` header gives a media type: its own entry, else its `type/*`, else `*\/*`, else 0. */
function weightOf(ranges: readonly { type: string; q: number }[], mediaType: string): { q: number; exact: boolean } {
  const [major] = mediaType.split('/');
  const exact = ranges.find((range) => range.type === mediaType);
  if (exact) return { q: exact.q, exact: true };
  const wide = ranges.find((range) => range.type === `${major}/*`) ?? ranges.find((range) => range.type === '*/*');
  return { q: wide?.q ?? 0, exact: false };
}

/**
 * Whether a client asks for HTML before JSON: a browser's navigation names `text/html`; an API client
 * (curl's and fetch's `*\/*`, or `application/json`) does not, and keeps JSON. A tie between named
 * types goes to JSON, the API's own format.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return { type, q: Number.isFinite(weight) ? weight : 0 };
  });
  const html = weightOf(ranges, 'text/html');
  if (!html.exact || html.q <= 0) return false;
  const json = weightOf(ranges, 'application/json');
  return json.exact ? html.q > json.q : html.q >= json.q;
}
