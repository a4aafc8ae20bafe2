// Decodes character references in an attribute value as a browser's HTML parser does (HTML
// standard, "character reference state"), so a URL can be checked as the browser will resolve it:
// `&#106;avascript:` and `javascript&colon;` are `javascript:` once the page is parsed.
import { NAMED_REFERENCES } from './html-named-references.js';

let named: Map<string, string> | undefined;

function namedReferences(): Map<string, string> {
  if (named) return named;
  named = new Map();
  for (const item of NAMED_REFERENCES.split(/\s+/)) {
    if (!item) continue;
    const [name, hex] = item.split('=') as [string, string];
    named.set(name, String.fromCodePoint(...hex.split('+').map((h) => parseInt(h, 16))));
  }
  return named;
}

/** The longest name in the table (the standard's is 32 with its ';'). */
const LONGEST_NAME = 32;

// Numeric references to C1 controls mean what windows-1252 puts there (the standard's table).
const WINDOWS_1252: Record<number, number> = {
  0x80: 0x20ac,
  0x82: 0x201a,
  0x83: 0x192,
  0x84: 0x201e,
  0x85: 0x2026,
  0x86: 0x2020,
  0x87: 0x2021,
  0x88: 0x2c6,
  0x89: 0x2030,
  0x8a: 0x160,
  0x8b: 0x2039,
  0x8c: 0x152,
  0x8e: 0x17d,
  0x91: 0x2018,
  0x92: 0x2019,
  0x93: 0x201c,
  0x94: 0x201d,
  0x95: 0x2022,
  0x96: 0x2013,
  0x97: 0x2014,
  0x98: 0x2dc,
  0x99: 0x2122,
  0x9a: 0x161,
  0x9b: 0x203a,
  0x9c: 0x153,
  0x9e: 0x17e,
  0x9f: 0x178,
};

function fromNumber(n: number): string {
  if (n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(WINDOWS_1252[n] ?? n);
}

const isAlphanumeric = (c: string | undefined) => c !== undefined && /^[A-Za-z0-9]$/.test(c);

/** `value` as the DOM holds it after parsing `attr="value"`. Linear in the length of `value`. */
export function decodeAttributeValue(value: string): string {
  if (!value.includes('&')) return value;
  let out = '';
  let i = 0;
  while (i < value.length) {
    const amp = value.indexOf('&', i);
    if (amp < 0) break;
    out += value.slice(i, amp);
    const [text, next] = value[amp + 1] === '#' ? numeric(value, amp) : namedAt(value, amp);
    out += text;
    i = next;
  }
  return out + value.slice(i);
}

/** `&#…` at `amp`: the text it stands for and where the rest starts. */
function numeric(value: string, amp: number): [string, number] {
  let i = amp + 2;
  const hex = value[i] === 'x' || value[i] === 'X';
  if (hex) i++;
  const digit = hex ? /^[0-9A-Fa-f]$/ : /^[0-9]$/;
  const start = i;
  let n = 0;
  for (; i < value.length && digit.test(value[i] as string); i++) {
    // Saturates: a long run of digits is out of range, not a huge number.
    n = Math.min(n * (hex ? 16 : 10) + parseInt(value[i] as string, 16), 0x110000);
  }
  if (i === start) return ['&', amp + 1]; // `&#` or `&#x` with no digits is text
  if (value[i] === ';') i++;
  return [fromNumber(n), i];
}

/** `&name` at `amp`: the longest name in the table that the text starts with. */
function namedAt(value: string, amp: number): [string, number] {
  const table = namedReferences();
  let end = amp + 1;
  while (end < value.length && end - amp <= LONGEST_NAME && isAlphanumeric(value[end])) end++;
  if (value[end] === ';') end++;
  for (let stop = end; stop > amp + 1; stop--) {
    const name = value.slice(amp + 1, stop);
    const text = table.get(name);
    if (text === undefined) continue;
    // In an attribute a legacy name without ';' before '=' or a letter or digit stays text.
    const after = value[stop];
    if (!name.endsWith(';') && (after === '=' || isAlphanumeric(after))) return ['&', amp + 1];
    return [text, stop];
  }
  return ['&', amp + 1];
}
