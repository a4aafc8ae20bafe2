// Content negotiation on plain header strings: Accept (must admit application/json) and
// Accept-Encoding (gzip / br), both with q-values; q=0 excludes.

function qOf(params: string[]): number {
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq > 0 && p.slice(0, eq).trim().toLowerCase() === 'q') {
      const q = Number(p.slice(eq + 1).trim());
      return Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0;
    }
  }
  return 1;
}

/**
 * Whether an Accept header admits `application/json`. The most specific matching range decides
 * (`application/json;q=0, *\/*` refuses JSON); a missing or empty header does not admit it.
 */
export function acceptsJson(header: string | undefined): boolean {
  if (!header) return false;
  if (header === 'application/json' || header === '*/*') return true; // the common cases, fast
  let best = -1; // specificity of the best match so far: 0 */*, 1 application/*, 2 application/json
  let q = 0;
  for (const part of header.split(',')) {
    const [range = '', ...params] = part.split(';');
    const r = range.trim().toLowerCase();
    const spec = r === 'application/json' ? 2 : r === 'application/*' ? 1 : r === '*/*' ? 0 : -1;
    if (spec < 0 || spec < best) continue;
    const thisQ = qOf(params);
    q = spec > best ? thisQ : Math.max(q, thisQ);
    best = spec;
  }
  return best >= 0 && q > 0;
}

export type Encoding = 'br' | 'gzip';

/**
 * The content coding to use among `available` (in order of preference), or undefined for
 * identity. Highest q wins; ties go to the earlier entry of `available`.
 */
export function negotiateEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | undefined {
  if (!header || available.length === 0) return undefined;
  const qs = new Map<string, number>();
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';');
    let c = coding.trim().toLowerCase();
    if (c === 'x-gzip') c = 'gzip';
    if (c) qs.set(c, Math.max(qs.get(c) ?? 0, qOf(params)));
  }
  let chosen: Encoding | undefined;
  let chosenQ = 0;
  for (const enc of available) {
    const q = qs.get(enc) ?? qs.get('*') ?? 0;
    if (q > chosenQ) {
      chosen = enc;
      chosenQ = q;
    }
  }
  return chosen;
}

/**
 * Whether a browser asks for a page: `text/html` (or `application/xhtml+xml`) named with a higher
 * q than `application/json`. A wildcard is no such request: curl and fetch send `*\/*`.
 */
export function prefersHtml(header: string | undefined): boolean {
  if (!header) return false;
  let html = 0;
  let json = 0;
  for (const part of header.split(',')) {
    const [range = '', ...params] = part.split(';');
    const r = range.trim().toLowerCase();
    if (r === 'text/html' || r === 'application/xhtml+xml') html = Math.max(html, qOf(params));
    else if (r === 'application/json') json = Math.max(json, qOf(params));
  }
  return html > json;
}
