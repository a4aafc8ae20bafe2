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

export function corsPolicy(cors: string | undefined): CorsPolicy {
  const value = (cors ?? '*').trim() || '*';
  const preflight = {
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': 'Authorization, Accept, If-None-Match, Prefer, project-id',
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
