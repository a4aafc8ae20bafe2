// The Range header of a file request (RFC 9110 §14), on plain strings: no Node imports, so the
// fetch adapter and the node:http file sender answer the same. Only single `bytes` ranges are
// honoured; several ranges get the whole file (200), which §14.2 allows in place of multipart.

export type RangeAnswer =
  /** Send the whole file with 200 (no Range, another unit, several ranges, a failed If-Range). */
  | { readonly kind: 'full' }
  /** Send bytes `start`..`end` (inclusive) with 206 and `Content-Range: bytes start-end/size`. */
  | { readonly kind: 'partial'; readonly start: number; readonly end: number }
  /** Answer 416 with `Content-Range: bytes *\/size`: invalid, or no byte of the file selected. */
  | { readonly kind: 'unsatisfiable' };

const FULL: RangeAnswer = { kind: 'full' };
const UNSATISFIABLE: RangeAnswer = { kind: 'unsatisfiable' };
const SPEC = /^(\d*)-(\d*)$/;

/**
 * What to answer to `Range: <header>` on a file of `size` bytes. `ifRange` and `etag` apply
 * If-Range (§13.1.5): a Range is honoured only when If-Range is absent or names the current
 * (strong) ETag; a date in If-Range is never trusted (second resolution), so the whole file goes.
 */
export function parseRange(header: string | undefined, size: number, ifRange?: string, etag?: string): RangeAnswer {
  if (header === undefined) return FULL;
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return FULL; // a unit we don't serve: ignored (§14.2)
  if (ifRange !== undefined && (etag === undefined || ifRange.trim() !== etag)) return FULL;
  const specs = header.slice(eq + 1).split(',');
  if (specs.length > 1) {
    // Several ranges: the whole file is a valid answer; but when not one of them is well formed
    // the request is invalid (416), as for a single one.
    return specs.some((s) => SPEC.test(s.trim()) && s.trim() !== '-') ? FULL : UNSATISFIABLE;
  }
  const m = SPEC.exec((specs[0] as string).trim());
  if (!m || (m[1] === '' && m[2] === '')) return UNSATISFIABLE;
  const first = m[1] as string;
  const last = m[2] as string;
  if (first === '') {
    // `-n`: the last n bytes (all of them when n ≥ size); `-0` selects nothing.
    const n = Number(last);
    if (n === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (end < start || start >= size) return UNSATISFIABLE; // inverted (`5-2`), or past the end
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

/** The `Content-Range` value of an answer (`bytes 0-6/18`, or `bytes *\/18` for a 416). */
export function contentRange(answer: RangeAnswer, size: number): string {
  return answer.kind === 'partial' ? `bytes ${answer.start}-${answer.end}/${size}` : `bytes */${size}`;
}
