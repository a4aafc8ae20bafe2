// Dates and times as content authors write them (ISO 8601), normalised to what the model stores.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// Date, optional time (T, t or a space), optional fraction, optional offset (only after a time).
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:\s*(Z|z|[+-]\d{2}(?::?\d{2})?))?)?$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/;
/** The form the model stores (Date#toISOString for years 0–9999). */
const STORED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether the parts name a real UTC moment (2021-02-30, 24:00 and 60 seconds do not). */
function validUtc(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (DAYS_IN_MONTH[mo - 1] as number) + (leap ? 1 : 0);
}

function utcMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number | undefined {
  if (!validUtc(y, mo, d, h, mi, s)) return undefined;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

/** Whether `s` is a real calendar date written YYYY-MM-DD. */
export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return m !== null && utcMs(Number(m[1]), Number(m[2]), Number(m[3])) !== undefined;
}

/**
 * An ISO 8601 date or date-time as `YYYY-MM-DDTHH:MM:SS.sssZ`, or undefined when it is not one.
 * A date alone means midnight UTC; a time without an offset is taken as UTC.
 */
export function parseDateTime(s: string): string | undefined {
  const text = s.trim();
  // Already in the stored form (what cqa pull and most tools write): checked, not rebuilt.
  if (text.length === 24 && STORED.test(text)) {
    const n = (from: number, to: number) => Number(text.slice(from, to));
    return validUtc(n(0, 4), n(5, 7), n(8, 10), n(11, 13), n(14, 16), n(17, 19)) ? text : undefined;
  }
  const m = DATETIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  const local = utcMs(Number(y), Number(mo), Number(d), Number(h ?? 0), Number(mi ?? 0), Number(sec ?? 0), ms);
  if (local === undefined) return undefined;
  let offset = 0;
  if (zone && zone !== 'Z' && zone !== 'z') {
    const digits = zone.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2) || '0');
    if (hours > 23 || minutes > 59) return undefined;
    offset = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const t = local - offset * 60_000;
  const out = new Date(t);
  return Number.isNaN(out.getTime()) ? undefined : out.toISOString();
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Why `s`, written as a date or date-time, names no moment ("month 13 does not exist", "February
 * 2025 has 28 days"), as a hint to append to a message; '' when it is not written so or is real
 * (found from outside: "expected a date YYYY-MM-DD, got 2025-13-45" said nothing of the reason).
 */
export function impossibleDateHint(s: string): string {
  const m = DATETIME.exec(s.trim());
  if (!m) return '';
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12) return `: month ${mo} does not exist (months go from 01 to 12)`;
  if (!validUtc(y, mo, d, 0, 0, 0)) {
    const days = (DAYS_IN_MONTH[mo - 1] as number) + (mo === 2 && validUtc(y, 2, 29, 0, 0, 0) ? 1 : 0);
    return `: ${MONTHS[mo - 1]} ${y} has days 01 to ${days}`;
  }
  if (h > 23 || mi > 59 || sec > 59) return ': the time does not exist (hours go up to 23, minutes and seconds up to 59)';
  const zone = m[8];
  if (zone && /^[+-]/.test(zone) && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(1).replace(':', '').slice(2) || '0') > 59))
    return ': the offset does not exist (at most ±23:59)';
  return '';
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * The ISO form to write for a date or date-time written another common way (found from outside:
 * "expected a date YYYY-MM-DD, got "01.03.2024"" left the author to work it out), as a hint to
 * append to a message; '' when `s` is none of them. `2024/03/01`, `2024-3-1`, `01.03.2024` (day
 * first, as dots mean in German and most of Europe), `13/01/2024` (day first: 13 is no month),
 * `01/13/2024` (month first), a time after any of them; `03/01/2024` could be either, and both are
 * named. A date-time given to a date field: the day alone.
 */
export function dateFormHint(s: string, kind: 'date' | 'datetime'): string {
  const t = s.trim();
  if (kind === 'date' && DATETIME.test(t) && !DATE.test(t)) {
    const day = t.slice(0, 10);
    return isDate(day) ? `: a date field takes the day alone (${day}); declare the field a datetime to keep the time` : '';
  }
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(.*)$/.exec(t);
  let dates: [number, number, number][] = [];
  let rest = '';
  if (m) {
    dates = [[Number(m[1]), Number(m[2]), Number(m[3])]];
    rest = m[4] as string;
  } else if ((m = /^(\d{1,2})([./])(\d{1,2})\2(\d{4})(.*)$/.exec(t))) {
    const [a, b, y] = [Number(m[1]), Number(m[3]), Number(m[4])];
    rest = m[5] as string;
    if (m[2] === '.' || a > 12) dates = [[y, b, a]];
    else if (b > 12) dates = [[y, a, b]];
    else
      dates = [
        [y, a, b],
        [y, b, a],
      ];
  }
  const time = /^(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(rest);
  if (!time) return '';
  const [h, mi, sec] = [Number(time[1] ?? 0), Number(time[2] ?? 0), Number(time[3] ?? 0)];
  const forms = dates
    .filter(([y, mo, d]) => validUtc(y, mo, d, h, mi, sec))
    .map(([y, mo, d]) => {
      const day = `${y}-${pad2(mo)}-${pad2(d)}`;
      return kind === 'date' || time[1] === undefined ? day : `${day}T${pad2(h)}:${pad2(mi)}:${pad2(sec)}Z`;
    });
  if (forms.length === 0) return '';
  const zone = kind === 'datetime' && time[1] !== undefined ? ' (Z: UTC; or an offset such as +01:00)' : '';
  if (forms.length === 1) return `: write it ${forms[0]}${zone}`;
  return `: write it ${forms[0]} if ${pad2(dates[0]?.[1] ?? 0)} is the month, ${forms[1]} if it is the day${zone}`;
}

/** Whether a date-time parseDateTime() reads has non-zero digits past milliseconds (which it drops). */
export function finerThanMs(s: string): boolean {
  // A fourth digit after the separator first: most date-times have none (the regex is then skipped).
  if (!/[.,]\d{4}/.test(s)) return false;
  const frac = DATETIME.exec(s.trim())?.[7];
  return frac !== undefined && /[1-9]/.test(frac.slice(3));
}

/** Whether `s` has a time part (so inference says datetime rather than date). */
export function hasTime(s: string): boolean {
  return DATETIME.test(s.trim()) && !DATE.test(s.trim());
}

export function isTime(s: string): boolean {
  return TIME.test(s);
}

export function isoFromMs(ms: number): string {
  // Rounded: mtimeMs is a float, and 5.678 s can come back as 5677.9999 ms.
  return new Date(Math.round(ms)).toISOString();
}
