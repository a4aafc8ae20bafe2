// The limit options of `cqa pull` (src/node/pull/limits.ts), read from the command line: counts as
// integers, sizes as bytes or with a unit (500MiB, 2GiB), the request timeout in seconds.
import { DEFAULT_TIMEOUT_MS } from '../pull/fetch.js';
import { DEFAULT_LIMITS, type PullLimits } from '../pull/limits.js';
import { UsageError } from './args.js';

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
};

export const LIMIT_HELP = {
  'max-pages': {
    type: 'string',
    value: 'N',
    help: 'pages read per list (a collection, its drafts, the media list)',
    fallback: String(DEFAULT_LIMITS.maxPages),
  },
  'max-entries': {
    type: 'string',
    value: 'N',
    help: 'items read per list (entries of a collection, media items)',
    fallback: String(DEFAULT_LIMITS.maxEntries),
  },
  'max-file-size': {
    type: 'string',
    value: 'SIZE',
    help: 'bytes of one media file (e.g. 500MiB), whatever size the API states',
    fallback: '1GiB',
  },
  'max-media-size': { type: 'string', value: 'SIZE', help: 'bytes of all media files of the pull (e.g. 50GiB)', fallback: '16GiB' },
  'max-bytes': {
    type: 'string',
    value: 'SIZE',
    help: 'bytes of all API answers (JSON) of the pull, held in memory (at most 384MiB); media files not counted',
    fallback: '256MiB',
  },
  timeout: {
    type: 'string',
    value: 'SECONDS',
    help: 'time each request has for its whole answer, a media file included; not retried when it runs out',
    fallback: String(DEFAULT_TIMEOUT_MS / 1000),
  },
} as const;

function count(option: string, raw: string): number {
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1)) throw new UsageError(`--${option} must be a positive integer, got '${raw}'`);
  return n;
}

function size(option: string, raw: string): number {
  const m = /^(\d{1,15})\s*([a-z]*)$/i.exec(raw.trim());
  const unit = m ? UNITS[(m[2] as string).toLowerCase()] : undefined;
  const n = m && unit !== undefined ? Number(m[1]) * unit : NaN;
  if (!(n >= 1 && Number.isSafeInteger(n)))
    throw new UsageError(`--${option} must be a size in bytes, optionally with a unit (KiB, MiB, GiB, TiB), e.g. 500MiB; got '${raw}'`);
  return n;
}

/** The limits given on the command line (the others keep their defaults). */
export function limitsFromArgs(values: Record<string, unknown>): Partial<PullLimits> {
  const given = (name: string) => values[name] as string | undefined;
  const limits: { -readonly [K in keyof PullLimits]?: number } = {};
  const pages = given('max-pages');
  const entries = given('max-entries');
  const file = given('max-file-size');
  const all = given('max-media-size');
  const answers = given('max-bytes');
  if (pages !== undefined) limits.maxPages = count('max-pages', pages);
  if (entries !== undefined) limits.maxEntries = count('max-entries', entries);
  if (file !== undefined) limits.maxFileBytes = size('max-file-size', file);
  if (all !== undefined) limits.maxMediaBytes = size('max-media-size', all);
  if (answers !== undefined) limits.maxBytes = size('max-bytes', answers);
  return limits;
}

/** --timeout in ms, or undefined when not given (a day at most: a typo of minutes for seconds shows). */
export function timeoutFromArgs(values: Record<string, unknown>): number | undefined {
  const raw = values.timeout as string | undefined;
  if (raw === undefined) return undefined;
  const n = /^\d{1,6}(\.\d{1,3})?$/.test(raw) ? Number(raw) : NaN;
  if (!(n > 0 && n <= 86_400)) throw new UsageError(`--timeout must be a number of seconds above 0 (at most 86400), got '${raw}'`);
  return Math.max(1, Math.round(n * 1000));
}
