// Strong ETags from a content digest. A compressed variant gets its own tag (`"<digest>-br"`),
// as RFC 9110 requires of different representations; If-None-Match compares the digest part
// (weak comparison, as RFC 9110 §13.1.2 says for If-None-Match), so a tag of any variant matches.
import type { Encoding } from './accept.js';
import { toBase64Url } from './sha256.js';

/** The opaque part of the tag: 128 bits of the SHA-256 digest, base64url. */
export function digestTag(digest: Uint8Array): string {
  return toBase64Url(digest.subarray(0, 16));
}

export function etagOf(tag: string, encoding?: Encoding): string {
  return encoding ? `"${tag}-${encoding}"` : `"${tag}"`;
}

/** Whether an If-None-Match header (a list of tags, or `*`) matches the representation `tag`. */
export function ifNoneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  for (let t of header.split(',')) {
    t = t.trim();
    if (t === '*') return true;
    if (t.startsWith('W/')) t = t.slice(2);
    if (t.length < 2 || t[0] !== '"' || t[t.length - 1] !== '"') continue;
    t = t.slice(1, -1);
    if (t.endsWith('-gzip')) t = t.slice(0, -5);
    else if (t.endsWith('-br')) t = t.slice(0, -3);
    if (t === tag) return true;
  }
  return false;
}
