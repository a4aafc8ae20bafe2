// JSON entries: JSON.parse (linear; JSON used to go through the YAML parser, whose duplicate-key
// check is quadratic), then one scan of the text for what JSON.parse lets through: a duplicate key
// (it keeps the last one silently), the LIMITS on keys and depth, a whole number whose last digits
// a double loses, and a number written in a form that prints otherwise (`1.10`, `1e3`: said where
// the field keeps text, number-text.ts). The same scan gives the lines of the top-level keys when
// a message needs them.
import { describe } from './issues.js';
import { LIMITS, TOO_DEEP, TOO_MANY_KEYS } from './limits.js';
import type { ParseProblem, UnkeptValue } from './parse.js';

export interface ParsedJson {
  readonly value: unknown;
  readonly problems: ParseProblem[];
  /** Whole numbers beyond 2^53, by path: their last digits are lost (errors of their fields). */
  readonly unkept: UnkeptValue[];
  /** Top-level keys (`key`, `key\0index` for an item of a top-level array) → a number as written, when it prints otherwise. */
  readonly numbers: Map<string, string> | undefined;
}

export function parseJson(text: string): ParsedJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const mistake = notJson(text);
    if (mistake) return { value: undefined, problems: [mistake], unkept: [], numbers: undefined };
    const message = (err as Error).message;
    // The line is ours to give; V8's own place ("in JSON at position 11 (line 3 column 1)") is noise then.
    // V8 gives no position for an unexpected token, but quotes the text (found from outside: the
    // whole file, newlines and all, and no line): said without the quote, at the token's line.
    const said = message
      .replace(/ in JSON at position \d+(?: \(line \d+ column \d+\))?$/, '')
      .replace(/^(Unexpected token '.*?'), [\s\S]*is not valid JSON$/, '$1');
    const yaml = /^\s*(?:---\s|[A-Za-z_][\w-]*:[ \t\r\n])/.test(text)
      ? ': the file holds YAML, not JSON; give it the extension .yaml (or .md, for front matter and a body)'
      : '';
    return {
      value: undefined,
      problems: [{ line: errorLine(text, message) ?? tokenLine(text), message: `broken JSON: ${said}${yaml}` }],
      unkept: [],
      numbers: undefined,
    };
  }
  const { problems, unkept, numbers } = scanJson(text, false);
  return problems.length > 0 ? { value: undefined, problems, unkept: [], numbers: undefined } : { value, problems, unkept, numbers };
}

/** Line of each top-level key, and `key\0index` → line of each item of a top-level array. */
export function jsonTopLines(text: string): Map<string, number> {
  return scanJson(text, true).lines;
}

/**
 * What V8's message does not say, found in one pass outside strings: the first comma right before
 * a `}` or `]` (JSON allows none), else the first comment or single-quoted string (JavaScript and
 * JSON5 allow them; V8 says only "Expected property name": found from outside).
 */
function notJson(text: string): ParseProblem | undefined {
  const lineAt = (at: number) => text.slice(0, at).split('\n').length;
  let comma = -1;
  let other: ParseProblem | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) break;
      comma = -1;
    } else if (c === 0x2c) comma = i;
    else if ((c === 0x7d || c === 0x5d) && comma >= 0) {
      return {
        line: lineAt(comma),
        message: `broken JSON: a comma before '${text[i]}': JSON allows none after the last ${c === 0x7d ? 'key' : 'item'}; remove it`,
      };
    } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
      comma = -1;
      if (other) continue;
      if (c === 0x2f && (text[i + 1] === '/' || text[i + 1] === '*'))
        other = {
          line: lineAt(i),
          message: 'broken JSON: JSON has no comments: remove it (or write the entry as YAML, which has # comments)',
        };
      else if (c === 0x27)
        other = { line: lineAt(i), message: `broken JSON: a string in single quotes: JSON's strings take double quotes ("…")` };
    }
  }
  return other;
}

/**
 * The line of the first character JSON.parse refuses, when its message has no position: the
 * shortest start of the text that it refuses other than for ending too soon ends there (a start
 * of valid JSON fails only at its end). About 22 parses of a 4 MiB file, for a broken file only.
 */
function tokenLine(text: string): number | undefined {
  const refusedWithin = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (err) {
      const message = (err as Error).message;
      if (message.startsWith('Unexpected end of JSON input')) return false;
      const at = /position (\d+)/.exec(message);
      return at === null || Number(at[1]) < length;
    }
  };
  if (!refusedWithin(text.length)) return undefined;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (refusedWithin(mid)) high = mid;
    else low = mid + 1;
  }
  return text.slice(0, Math.max(0, low - 1)).split('\n').length;
}

function errorLine(text: string, message: string): number | undefined {
  const m = /position (\d+)/.exec(message);
  return m ? text.slice(0, Number(m[1])).split('\n').length : undefined;
}

interface Frame {
  /** Key → line, for an object; undefined for an array. */
  readonly keys: Map<string, number> | undefined;
  /** The key whose value comes next or is being read, for an object. */
  key: string | undefined;
  /** For an array that is the value of a top-level key: that key. */
  readonly topKey: string | undefined;
  /** Where it starts. */
  readonly line: number;
  items: number;
}

/** A number token as JSON writes it (the text is well formed: it starts at a `-` or a digit). */
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;

interface JsonScan {
  problems: ParseProblem[];
  lines: Map<string, number>;
  unkept: UnkeptValue[];
  numbers: Map<string, string> | undefined;
}

/** Scans text that JSON.parse accepted (so it is well formed). */
function scanJson(text: string, wantLines: boolean): JsonScan {
  const problems: ParseProblem[] = [];
  const unkept: UnkeptValue[] = [];
  let numbers: Map<string, string> | undefined;
  const lines = new Map<string, number>();
  const frames: Frame[] = [];
  let line = 1;
  let expectKey = false; // the next string is a key
  let expectItem = false; // the next value is an item of the innermost array
  let topKey: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    if (c === 0x0a || c === 0x20 || c === 0x09 || c === 0x0d) continue;
    const frame = frames[frames.length - 1];
    if (expectItem && c !== 0x5d && frame) {
      if (wantLines && frame.topKey !== undefined) lines.set(`${frame.topKey}\0${frame.items}`, line);
      frame.items++;
    }
    expectItem = false;
    if (c === 0x7b || c === 0x5b) {
      // { or [
      if (frames.length >= LIMITS.depth) return { problems: [{ line, message: TOO_DEEP }], lines, unkept, numbers };
      const object = c === 0x7b;
      frames.push({
        keys: object ? new Map() : undefined,
        key: undefined,
        topKey: !object && frames.length === 1 ? topKey : undefined,
        line,
        items: 0,
      });
      expectKey = object;
      expectItem = !object;
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
    } else if (c === 0x2c) {
      expectKey = frame?.keys !== undefined;
      expectItem = !expectKey;
    } else if (c === 0x22) {
      const end = closingQuote(text, i);
      if (expectKey && frame?.keys) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        const first = frame.keys.get(key);
        if (first !== undefined)
          problems.push({ line, message: `duplicate key ${describe(key)} (first on line ${first}): keys must be unique` });
        else if (frame.keys.set(key, line).size > LIMITS.keysPerMapping)
          return { problems: [{ line: frame.line, message: TOO_MANY_KEYS }], lines, unkept, numbers };
        if (frames.length === 1) {
          topKey = key;
          if (wantLines && first === undefined) lines.set(key, line);
        }
        frame.key = key;
        expectKey = false;
      }
      i = end;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const written = (NUMBER.exec(text) as RegExpExecArray)[0];
      i += written.length - 1;
      const read = Number(written);
      if (String(read) === written) continue;
      const path = frames.map((f) => (f.keys ? (f.key as string) : f.items - 1));
      const kind = !Number.isFinite(read) ? 'infinity' : /^-?\d{16,}$/.test(written) && !Number.isSafeInteger(read) ? 'long' : undefined;
      if (kind) {
        if (unkept.length < 20) unkept.push({ path, line, kind });
      } else if (path.length === 1 || (path.length === 2 && typeof path[1] === 'number')) {
        (numbers ??= new Map()).set(path.join('\0'), written);
      }
    }
  }
  return { problems, lines, unkept, numbers };
}

/** Index of the quote that ends the string starting at `start` (a quote after an odd run of backslashes is escaped). */
function closingQuote(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}
