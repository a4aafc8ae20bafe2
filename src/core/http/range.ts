// The Range header of a file request (RFC 9110 §14), on plain strings: no Node imports, so the
// fetch adapter and the node:http file sender answer the same. Only single `bytes` ranges are
// honoured; several ranges get the whole file (200), which §14.2 allows in place of multipart.

export type RangeAnswer =
  /** Send the whole file with 200 (no Range, another unit, an invalid one, several ranges, a failed If-Range). */
  | { readonly kind: 'full' }
  /** Send bytes `start`..`end` (inclusive) with 206 and `Content-Range: bytes start-end/size`. */
  | { readonly kind: 'partial'; readonly start: number; readonly end: number }
  /** Answer 416 with `Content-Range: bytes *\/size`: well formed, but no byte of the file selected. */
  | { readonly kind: 'unsatisfiable' };

const FULL: RangeAnswer = { kind: 'full' };
const UNSATISFIABLE: RangeAnswer = { kind: 'unsatisfiable' };
const INT_RANGE = /^(\d+)-(\d*)$/;
const SUFFIX_RANGE = /^-(\d+)$/;
/** A range-spec outside the grammar of §14.1.1, or an int-range whose last-pos is below its first. */
const INVALID = 'invalid';
/** A well-formed range-spec that selects no byte of this file. */
const NOTHING = 'nothing';

type ByteRange = Extract<RangeAnswer, { kind: 'partial' }>;

/** One range-spec of a `bytes` Range on a file of `size` bytes. */
function byteRange(spec: string, size: number): ByteRange | typeof INVALID | typeof NOTHING {
  const int = INT_RANGE.exec(spec);
  if (int) {
    const start = Number(int[1]);
    const last = int[2] as string;
    if (last !== '' && Number(last) < start) return INVALID; // `5-2` (§14.1.1)
    if (start >= size) return NOTHING; // past the end
    return { kind: 'partial', start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
  }
  const suffix = SUFFIX_RANGE.exec(spec);
  if (!suffix) return INVALID;
  // `-n`: the last n bytes (all of them when n ≥ size); `-0` selects nothing.
  const n = Number(suffix[1]);
  return n === 0 || size === 0 ? NOTHING : { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
}

/**
 * What to answer to `Range: <header>` on a file of `size` bytes. A Range that is not a valid
 * ranges-specifier (`bytes=0-1e3`, `bytes=abc`, `bytes=5-2`, `bytes=`) is ignored and the whole
 * file sent, as RFC 9110 §14.2 has a server do with a header it does not understand; 416 is only
 * for well-formed ranges of which none selects a byte. `ifRange` and `etag` apply If-Range
 * (§13.1.5): a Range is honoured only when If-Range is absent or names the current (strong) ETag;
 * a date in If-Range is never trusted (second resolution), so the whole file goes.
 */
export function parseRange(header: string | undefined, size: number, ifRange?: string, etag?: string): RangeAnswer {
  if (header === undefined) return FULL;
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return FULL; // a unit we don't serve: ignored (§14.2)
  if (ifRange !== undefined && (etag === undefined || ifRange.trim() !== etag)) return FULL;
  // Empty list elements (`0-1,`) are skipped, as for any list header (§5.6.1).
  const specs = header
    .slice(eq + 1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const ranges = specs.map((s) => byteRange(s, size));
  if (ranges.length === 0 || ranges.includes(INVALID)) return FULL;
  const selected = ranges.filter((r): r is ByteRange => r !== NOTHING && r !== INVALID);
  if (selected.length === 0) return UNSATISFIABLE;
  // Several ranges: the whole file is a valid answer (no multipart).
  return ranges.length > 1 ? FULL : (selected[0] as ByteRange);
}
/** The `Content-Range` value of an answer (`bytes 0-6/18`, or `bytes *\/18` for a 416). */
export function contentRange(answer: RangeAnswer, size: number): string {
  return answer.kind === 'partial' ? `bytes ${answer.start}-${answer.end}/${size}` : `bytes */${size}`;
}
