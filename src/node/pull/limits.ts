// How much a pull may read from a server: the server is not trusted to end its lists or to state
// honest sizes. An endless list (each page new ids, meta.total in the billions) grew memory until
// the process died; a media size that was not a number switched the per-file check off, and 13.5 GB
// were written in 50 s; pages of 50 MB each, under every other cap, were all kept until V8 ran out
// of heap. Each cap names itself and the option that raises it when it is reached.
import { PullError } from './model.js';

export interface PullLimits {
  /** Pages read per list (one collection, its drafts, the media list). */
  readonly maxPages: number;
  /** Items per list: entries of one collection (and again of its drafts), media items. */
  readonly maxEntries: number;
  /** Bytes of one media file, whatever size the API states. */
  readonly maxFileBytes: number;
  /** Bytes of all media files downloaded in one pull. */
  readonly maxMediaBytes: number;
  /**
   * Bytes of all API answers (JSON documents) one pull reads: the pull holds them in memory until
   * the tree is written. Media files go to disk and have the two limits above.
   */
  readonly maxBytes: number;
}

export const DEFAULT_LIMITS: PullLimits = {
  maxPages: 10_000,
  maxEntries: 200_000,
  maxFileBytes: 1024 ** 3, // 1 GiB
  maxMediaBytes: 16 * 1024 ** 3, // 16 GiB
  // Held about three times over (parsed, and the text kept for the next pull's If-None-Match) it
  // stays well inside Node's default heap; and .cqa-pull.json, which holds the texts, must stay
  // below V8's 512 MiB string limit to be read back. docs/pull.md says more.
  maxBytes: 256 * 1024 ** 2, // 256 MiB
};

/** The most --max-bytes may be: .cqa-pull.json holds the answers' texts, escaped, and is read back as one string. */
const MAX_BYTES_CEILING = 384 * 1024 ** 2;

/** The command-line option that raises each limit. */
export const LIMIT_OPTIONS: Record<keyof PullLimits, string> = {
  maxPages: '--max-pages',
  maxEntries: '--max-entries',
  maxFileBytes: '--max-file-size',
  maxMediaBytes: '--max-media-size',
  maxBytes: '--max-bytes',
};

const UNITS: Record<keyof PullLimits, string> = {
  maxPages: 'pages',
  maxEntries: 'items',
  maxFileBytes: 'bytes',
  maxMediaBytes: 'bytes of media in all',
  maxBytes: 'bytes of API answers in all',
};

/** The error for a limit reached: what, the limit, and how to raise it. */
export function overLimit(limits: PullLimits, limit: keyof PullLimits, what: string): PullError {
  return new PullError(
    `${what}: more than ${limits[limit]} ${UNITS[limit]}, the limit of this pull; stopped. If that is expected, raise it with ${LIMIT_OPTIONS[limit]} N`,
  );
}

/** Whether `n` is a count or a size: a non-negative safe integer. */
export const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/**
 * A media size as an API states it: a non-negative integer, or a string of digits (some APIs
 * send numbers as strings). Anything else is refused, never turned into NaN.
 */
export function statedSize(value: unknown, what: string): number {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (!isCount(n))
    throw new PullError(
      `${what}: the API states its size as ${JSON.stringify(value) ?? String(value)}, not a number of bytes (a non-negative integer); cannot check the download`,
    );
  return n;
}

/** Limits given in part, checked: each a positive safe integer. */
export function pullLimits(given: Partial<PullLimits> = {}): PullLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof PullLimits)[]) {
    const v = given[key];
    if (v === undefined) continue;
    if (!isCount(v) || v === 0) throw new PullError(`${LIMIT_OPTIONS[key]} must be a positive integer, got ${String(v)}`, true);
    if (key === 'maxBytes' && v > MAX_BYTES_CEILING)
      throw new PullError(
        `${LIMIT_OPTIONS[key]} can be at most 384 MiB: the answers are kept in .cqa-pull.json for the next pull, and a longer file could not be read back (V8 strings end at 512 MiB); pull fewer collections at a time (--collections) instead`,
        true,
      );
    limits[key] = v;
  }
  return limits;
}
