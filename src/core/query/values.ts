// Typed values: how stored field values and query values are read for comparison (§4.3).
// No Node imports; no RegExp is ever built from user input.
import type { FieldType } from '../model/model.js';

/**
 * How a field compares:
 * - num: numbers; date: dates/datetimes/timestamps as epoch ms; time: seconds of the day;
 *   bool: 0/1 — these four live in Float64 columns and compare numerically;
 * - text: strings by code point; ref: relation/media ids; json: only null/not_null (json values,
 *   groups and date ranges: objects, which no value written in a query compares with).
 */
export type Kind = 'num' | 'date' | 'time' | 'bool' | 'text' | 'ref' | 'json';

export function kindOf(field: { readonly type: FieldType; readonly range?: boolean | undefined }): Kind {
  switch (field.type) {
    case 'number':
      return 'num';
    case 'date':
    case 'datetime':
      return field.range ? 'json' : 'date';
    case 'time':
      return 'time';
    case 'boolean':
      return 'bool';
    case 'relation':
    case 'media':
      return 'ref';
    case 'json':
    case 'group':
      return 'json';
    default:
      return 'text';
  }
}

export function isNumericKind(kind: Kind): boolean {
  return kind === 'num' || kind === 'date' || kind === 'time' || kind === 'bool';
}

/**
 * A query value on a numeric column: the point `lo` (point = true), or the half-open interval
 * [lo, hi) — a date-only value on a date/datetime field stands for its whole UTC day.
 */
export interface NumValue {
  readonly lo: number;
  readonly hi: number;
  readonly point: boolean;
}

const DECIMAL = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** A finite decimal number (no hex, no Infinity, no blanks), else undefined. */
export function parseNumber(text: string): number | undefined {
  if (text.length > 400 || !DECIMAL.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

export function parseBoolean(text: string): boolean | undefined {
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return undefined;
}

const DATE_ONLY = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,9}))?)?(?:([Zz])|([+ -])([0-9]{2}):?([0-9]{2}))?$/;

const DAY = 86_400_000;

/** Epoch ms of a calendar day (the literal year, also below 100), undefined for an invalid date. */
function fullYearDayMs(y: number, m: number, d: number): number | undefined {
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return date.getTime();
}

function dateParts(y: string, m: string, d: string): number | undefined {
  return fullYearDayMs(Number(y), Number(m), Number(d));
}

/**
 * An ISO 8601 date (`2021-11-25` → that whole UTC day) or datetime (`2021-11-25T10:00:00Z`,
 * offsets allowed — a space before the offset is read as '+', since '+' decodes to a space;
 * without an offset the time is UTC) → a NumValue in epoch ms. Else undefined.
 */
export function parseDateValue(text: string): NumValue | undefined {
  let m = DATE_ONLY.exec(text);
  if (m) {
    const lo = dateParts(m[1] as string, m[2] as string, m[3] as string);
    return lo === undefined ? undefined : { lo, hi: lo + DAY, point: false };
  }
  m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const day = dateParts(m[1] as string, m[2] as string, m[3] as string);
  const hh = Number(m[4]);
  const mm = Number(m[5]);
  const ss = m[6] === undefined ? 0 : Number(m[6]);
  if (day === undefined || hh > 23 || mm > 59 || ss > 59) return undefined;
  const frac = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  let offset = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offset = (oh * 60 + om) * 60_000 * (m[9] === '-' ? -1 : 1);
  }
  const lo = day + ((hh * 60 + mm) * 60 + ss) * 1000 + frac - offset;
  return { lo, hi: lo + 1, point: true };
}

/** A stored date ('YYYY-MM-DD') or datetime (ISO) → epoch ms, NaN when unreadable. */
export function storedDateMs(value: unknown): number {
  if (typeof value !== 'string') return NaN;
  const v = parseDateValue(value);
  return v === undefined ? NaN : v.lo;
}

const TIME = /^([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,9}))?)?$/;

/** `HH:MM[:SS[.fff]]` → seconds of the day, else undefined. */
export function parseTime(text: string): number | undefined {
  const m = TIME.exec(text);
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  const s = m[3] === undefined ? 0 : Number(m[3]);
  if (h > 23 || min > 59 || s > 59) return undefined;
  return h * 3600 + min * 60 + s + (m[4] === undefined ? 0 : Number(`0.${m[4]}`));
}

/** A stored scalar of a numeric kind → its number (NaN when empty or unreadable). */
export function storedNumber(kind: Kind, value: unknown): number {
  switch (kind) {
    case 'num':
      return typeof value === 'number' && Number.isFinite(value) ? value : NaN;
    case 'date':
      return storedDateMs(value);
    case 'time':
      return typeof value === 'string' ? (parseTime(value) ?? NaN) : NaN;
    case 'bool':
      return value === true ? 1 : value === false ? 0 : NaN;
    default:
      return NaN;
  }
}

/** A stored scalar of a text or ref kind → its string (undefined when empty). */
export function storedText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
