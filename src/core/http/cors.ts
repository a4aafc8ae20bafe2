// CORS headers. `cors` is `*` (the default), one origin, or a comma-separated list of origins (the
// request's Origin is echoed when listed). With anything but `*`, answers carry `Vary: Origin`.
export interface CorsPolicy {
  /** Headers for every answer (simple requests). */
  readonly headers: (origin: string | undefined) => Record<string, string>;
  /** Extra headers for a preflight (OPTIONS) answer. */
  readonly preflight: Readonly<Record<string, string>>;
  readonly varyOrigin: boolean;
}

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/**
 * The headers the API reads, and `*`: any other a client adds (`Content-Type` on a GET,
 * `X-Requested-With`) is allowed too, and ignored, as ElmapiCMS's Laravel allows every header
 * (found from outside: a fetch with Content-Type failed its preflight). The wildcard does not
 * cover Authorization, hence the names; no answer allows credentials, so it is never literal.
 */
export const ALLOWED_HEADERS = 'Authorization, Accept, If-None-Match, Prefer, project-id, *';

export function corsPolicy(cors: string | undefined): CorsPolicy {
  const problem = corsProblem(cors);
  if (problem) throw new TypeError(`cors: ${problem}`);
  const value = (cors ?? '*').trim() || '*';
  const preflight = {
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
  };
  if (value === '*') {
    const fixed = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag' };
    return { headers: () => fixed, preflight, varyOrigin: false };
  }
  const origins = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  if (origins.length === 1) {
    const fixed = { 'access-control-allow-origin': origins[0] as string, 'access-control-expose-headers': 'ETag' };
    return { headers: () => fixed, preflight, varyOrigin: true };
  }
  const allowed = new Set(origins);
  return {
    headers: (origin): Record<string, string> =>
      origin !== undefined && allowed.has(origin) ? { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'ETag' } : {},
    preflight,
    varyOrigin: true,
  };
}

/**
 * Why `cors` would never match a browser, or undefined. A browser's Origin header is exactly
 * scheme://host[:port], lowercase, without a path or the scheme's default port: `example.com` or
 * `https://example.com/` is compared with it and never equals it, and the browser reports only a
 * CORS failure — so such a value is refused, naming what to write.
 */
export function corsProblem(cors: string | undefined): string | undefined {
  const value = (cors ?? '*').trim();
  if (value === '*' || value === '') return undefined;
  const origins = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  if (origins.length === 0) return `'${value}' names no origin: give '*', an origin, or a comma-separated list`;
  for (const origin of origins) {
    if (origin === 'null') continue; // sandboxed frames and file: pages
    if (origin === '*') return `'*' stands alone: it allows every origin, so a list holding it means '*'; give '*' or the origins`;
    if (origin.includes('*')) return `'${origin}': a pattern matches no browser's origin (it is compared as written): list each origin`;
    if (/^file:/i.test(origin)) return `'${origin}': a page opened from a file sends the origin null: write null`;
    const write = originAsSent(origin);
    if (write === origin) continue;
    const instead = write ? `write '${write}'` : 'write scheme://host[:port], e.g. https://example.com';
    return `'${origin}' is not an origin as a browser sends it (scheme://host[:port], lowercase, no path, no default port), so it would never match: ${instead}`;
  }
  return undefined;
}

/** The origin a browser sends for a page at `text`, or undefined when it is no URL with a host. */
function originAsSent(text: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]/i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  // A host as it is sent: letters, digits, dots and dashes (an IDN in punycode), or [IPv6].
  if (!/^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d+)?$/i.test(url.host)) return undefined;
  // An app's own scheme (capacitor://localhost) has no origin in the URL standard; web views send it so.
  return url.origin !== 'null' ? url.origin : `${url.protocol}//${url.host.toLowerCase()}`;
}
