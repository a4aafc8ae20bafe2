// JSON entries: JSON.parse (linear; JSON used to go through the YAML parser, whose duplicate-key
// check is quadratic), then one scan of the text for what JSON.parse lets through: a duplicate key
// (it keeps the last one silently) and the LIMITS on keys and depth. The same scan gives the lines
// of the top-level keys when a message needs them.
import { describe } from './issues.js';
import { LIMITS, TOO_DEEP, TOO_MANY_KEYS } from './limits.js';
import type { ParseProblem } from './parse.js';

export function parseJson(text: string): { value: unknown; problems: ParseProblem[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const comma = trailingComma(text);
    if (comma) return { value: undefined, problems: [comma] };
    const message = (err as Error).message;
    // The line is ours to give; V8's own place ("in JSON at position 11 (line 3 column 1)") is noise then.
    const said = message.replace(/ in JSON at position \d+(?: \(line \d+ column \d+\))?$/, '');
    return { value: undefined, problems: [{ line: errorLine(text, message), message: `broken JSON: ${said}` }] };
  }
  const { problems } = scanJson(text, false);
  return problems.length > 0 ? { value: undefined, problems } : { value, problems };
}

/** Line of each top-level key, and `key\0index` → line of each item of a top-level array. */
export function jsonTopLines(text: string): Map<string, number> {
  return scanJson(text, true).lines;
}

/** The first comma right before a `}` or `]` (outside strings): JSON allows none, and V8's message does not say so. */
function trailingComma(text: string): ParseProblem | undefined {
  let comma = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) return undefined;
      comma = -1;
    } else if (c === 0x2c) comma = i;
    else if ((c === 0x7d || c === 0x5d) && comma >= 0) {
      const line = text.slice(0, comma).split('\n').length;
      return {
        line,
        message: `broken JSON: a comma before '${text[i]}': JSON allows none after the last ${c === 0x7d ? 'key' : 'item'}; remove it`,
      };
    } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) comma = -1;
  }
  return undefined;
}

function errorLine(text: string, message: string): number | undefined {
  const m = /position (\d+)/.exec(message);
  return m ? text.slice(0, Number(m[1])).split('\n').length : undefined;
}

interface Frame {
  /** Key → line, for an object; undefined for an array. */
  readonly keys: Map<string, number> | undefined;
  /** For an array that is the value of a top-level key: that key. */
  readonly topKey: string | undefined;
  /** Where it starts. */
  readonly line: number;
  items: number;
}

/** Scans text that JSON.parse accepted (so it is well formed). */
function scanJson(text: string, wantLines: boolean): { problems: ParseProblem[]; lines: Map<string, number> } {
  const problems: ParseProblem[] = [];
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
      if (frames.length >= LIMITS.depth) return { problems: [{ line, message: TOO_DEEP }], lines };
      const object = c === 0x7b;
      frames.push({ keys: object ? new Map() : undefined, topKey: !object && frames.length === 1 ? topKey : undefined, line, items: 0 });
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
          return { problems: [{ line: frame.line, message: TOO_MANY_KEYS }], lines };
        if (frames.length === 1) {
          topKey = key;
          if (wantLines && first === undefined) lines.set(key, line);
        }
        expectKey = false;
      }
      i = end;
    }
  }
  return { problems, lines };
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
