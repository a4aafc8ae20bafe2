// Raw request path → route. Segments are percent-decoded one by one; an encoded slash or
// backslash, a `.`/`..` segment or an empty segment is not a route (404), malformed
// percent-encoding or a NUL byte is a 400. Nothing here touches the file system.
import type { Problem } from './problem.js';

export const MEDIA_SEGMENT = 'project-media';

export type Route =
  | { readonly kind: 'healthz' }
  | { readonly kind: 'openapi' }
  | { readonly kind: 'project'; readonly project: string }
  | { readonly kind: 'media-list'; readonly project: string }
  | { readonly kind: 'media-item'; readonly project: string; readonly id: string }
  | { readonly kind: 'entries'; readonly project: string; readonly collection: string }
  | { readonly kind: 'entry'; readonly project: string; readonly collection: string; readonly id: string }
  /** `/media/<project>/<id>`, or with `thumb` `/thumbs/<project>/<id>` (its thumbnail). */
  | { readonly kind: 'media-file'; readonly project: string; readonly id: string; readonly thumb?: true }
  | { readonly kind: 'problem'; readonly problem: Problem };

const notFound = (path: string): Route => ({
  kind: 'problem',
  problem: { status: 404, code: 'not_found', detail: `nothing at '${path}'; API paths start with /api/<project_id>` },
});

function decodeSegment(seg: string): string | Problem | null {
  if (seg.indexOf('%') < 0) {
    if (seg === '.' || seg === '..' || seg === '' || seg.includes('\\')) return null;
    return seg;
  }
  if (/%(2f|5c)/i.test(seg)) return null; // encoded slash or backslash: never a path separator
  let out: string;
  try {
    out = decodeURIComponent(seg);
  } catch {
    return { status: 400, code: 'malformed_path', detail: `the path segment '${seg}' is not valid percent-encoding` };
  }
  if (out.includes('\0')) return { status: 400, code: 'malformed_path', detail: 'the path contains a NUL byte' };
  if (out === '.' || out === '..' || out.includes('\\')) return null;
  return out;
}

export function route(rawPath: string): Route {
  if (rawPath === '/healthz') return { kind: 'healthz' };
  if (rawPath === '/openapi.json') return { kind: 'openapi' };
  if (rawPath.charCodeAt(0) !== 47 /* / */) return notFound(rawPath);
  // One trailing slash is tolerated, as static hosts serve `/x/` from `x/index.json`.
  const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  const raw = path.split('/');
  const top = raw[1];
  if ((top !== 'api' && top !== 'media' && top !== 'thumbs') || raw.length < 3) return notFound(rawPath);
  const segs: string[] = [];
  for (let i = 2; i < raw.length; i++) {
    const s = decodeSegment(raw[i] as string);
    if (s === null) return notFound(rawPath);
    if (typeof s !== 'string') return { kind: 'problem', problem: s };
    segs.push(s);
  }
  const project = segs[0] as string;
  if (top !== 'api') {
    // A file has no trailing slash: a static host answers `ok.png/` 404 (found from outside: served here).
    if (segs.length < 2 || path !== rawPath) return notFound(rawPath);
    const id = segs.slice(1).join('/');
    return top === 'media' ? { kind: 'media-file', project, id } : { kind: 'media-file', project, id, thumb: true };
  }
  if (segs.length === 1) return { kind: 'project', project };
  const second = segs[1] as string;
  if (second === MEDIA_SEGMENT) {
    if (segs.length === 2) return { kind: 'media-list', project };
    return { kind: 'media-item', project, id: segs.slice(2).join('/') };
  }
  if (segs.length === 2) return { kind: 'entries', project, collection: second };
  if (segs.length === 3) return { kind: 'entry', project, collection: second, id: segs[2] as string };
  return notFound(rawPath);
}
