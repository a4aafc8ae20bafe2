// A process-wide memo of parse results by the file's exact text, for loads in the calling thread.
// A test suite that starts a server in every beforeAll parses the same files each time: YAML and
// front matter were two thirds of such a start. Keyed by the text itself, never by path or mtime
// (a fixture rewritten within one mtime tick must not give the old result), and bounded: the
// texts and their results are dropped oldest first past MEMO_CHARS. Results are frozen, deeply,
// as they are shared by every load that reads the same text.
import type { EntryFormat } from './parse.js';

/** Characters of text whose results are kept (about what the texts take in bytes). */
export const MEMO_CHARS = 4 * 2 ** 20;

type Kind = EntryFormat | 'settings';

export class ParseMemo {
  private readonly results = new Map<Kind, Map<string, unknown>>();
  private readonly order = new Map<string, Kind>();
  private chars = 0;

  constructor(private readonly maxChars = MEMO_CHARS) {}

  /** `parse(text)`, or what it gave for the same `kind` and text before. */
  get<T>(kind: Kind, text: string, parse: (text: string) => T): T {
    let byText = this.results.get(kind);
    if (!byText) this.results.set(kind, (byText = new Map()));
    if (byText.has(text)) return byText.get(text) as T;
    const result = parse(text);
    if (text.length > this.maxChars) return result; // not shared: no need to freeze it
    byText.set(text, deepFreeze(result));
    this.remember(kind, text);
    return result;
  }

  private remember(kind: Kind, text: string): void {
    // The same text may be kept for two kinds (a .yaml entry and a settings file): count it once.
    if (this.order.has(text)) return;
    this.order.set(text, kind);
    this.chars += text.length;
    for (const [old] of this.order) {
      if (this.chars <= this.maxChars) break;
      this.order.delete(old);
      this.chars -= old.length;
      for (const byText of this.results.values()) byText.delete(old);
    }
  }
}

/** Freezes `value` and everything reachable from it (plain data: objects, arrays, maps' values). */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) continue;
    // A loop, not push(...values()): a map of a few 100,000 values is more arguments than the stack holds.
    if (v instanceof Map) for (const child of v.values()) stack.push(child);
    // Own data properties only: a getter (an entry's lazy `lines`) is left to compute its value.
    for (const d of Object.values(Object.getOwnPropertyDescriptors(v))) if ('value' in d) stack.push(d.value);
    Object.freeze(v);
  }
  return value;
}

const shared = new ParseMemo();

/** The memo of this thread's loads. */
export function parseMemo(): ParseMemo {
  return shared;
}
