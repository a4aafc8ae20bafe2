// The fast path of parseYaml(): the YAML that content files are made of — block mappings and
// lists, one-line scalars, quoted strings without escapes, `|`/`>` block scalars, one-line flow
// lists and mappings of scalars, comments — read in one pass over the lines. It gives what the
// `yaml` package gives (the plain value, the line of every key and list item) or undefined for
// anything else: then the full parser runs, with its errors and checks. A cold start parses the
// whole tree before the JIT has compiled anything, and `yaml`'s lexer, parser and composer took
// ~200 ms of CPU for the 98-file sample (this: ~15 ms), beside ~50 ms to load the package.
// Anything unsure declines: a property test (test/content/simple-yaml.test.ts) compares the two
// over many generated documents.

export interface SimpleYaml {
  readonly value: Record<string, unknown>;
  /** Line (1-based) of every key and list item, by path (segments joined by NUL), as pathLines() makes it. */
  readonly paths: Map<string, number>;
  /** Line of each top-level key, and `key\0index` of each item of a top-level list, as topLines() makes it. */
  readonly top: Map<string, number>;
}

/** Thrown (and caught in parseSimpleYaml) when the text is not in the subset. */
const DECLINE = Symbol('decline');

// Characters the subset leaves to the full parser: tabs, CR, other control characters, a BOM,
// YAML 1.1's line breaks, non-characters.
const UNUSUAL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;
// Document markers and directives at the start of a line.
const MARKERS = /^(?:---|\.\.\.)(?:[ \n]|$)|^%/m;
// A plain key: a word, maybe with `.`, `/` and `-` (`hero.png`, `posts/alps.png`), not a number.
const KEY = /^(\w[\w./-]*):(?= |$) */;
// The first character of a plain scalar may not be an indicator (`-`, `?` and `:` may, before a non-space: not taken here).
const INDICATOR_FIRST = /^[-?:,[\]{}#&*!|>'"%@`]/;
const INT = /^-?(?:0|[1-9][0-9]{0,14})$/;
const FLOAT = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/;
// Every other number of YAML 1.2's core schema (the `yaml` package's tests): left to it.
const OTHER_NUMBER =
  /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/;
const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
// After a quoted scalar or a flow collection: nothing, or a comment.
const REST = /^(?: +(?:#.*)?)?$/;
/** Nesting and keys per mapping well below the full parser's limits (LIMITS), whose errors it reports. */
const MAX_DEPTH = 50;
const MAX_KEYS = 10_000;
const MAX_FLOW_DEPTH = 20;

// Only spaces are indentation and separation in YAML: a no-break space is text (String#trim would
// take it). Loops, not / +$/: that regex takes time quadratic in a run of spaces inside the text.
function withoutSpaces(s: string): string {
  let start = 0;
  while (s.charCodeAt(start) === 0x20) start++;
  return s.slice(start);
}

function trimSpacesEnd(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x20) end--;
  return s.slice(0, end);
}

const decline = (): never => {
  throw DECLINE;
};

interface Line {
  readonly no: number;
  readonly indent: number;
  /** The line after its indentation. */
  readonly text: string;
}

/** The value and lines of `text`, or undefined when it is not in the subset (or not a mapping). */
export function parseSimpleYaml(text: string): SimpleYaml | undefined {
  if (UNUSUAL.test(text) || MARKERS.test(text)) return undefined;
  try {
    return new Reader(text).document();
  } catch (err) {
    if (err === DECLINE) return undefined;
    throw err;
  }
}

class Reader {
  private readonly raw: string[];
  private readonly lines: (Line | undefined)[] = [];
  private next = 0;
  readonly paths = new Map<string, number>();
  readonly top = new Map<string, number>();

  constructor(text: string) {
    this.raw = text.split('\n');
  }

  document(): SimpleYaml {
    const first = this.peek();
    if (first?.indent !== 0) decline();
    const value = this.mapping(0, undefined, 1);
    if (this.peek()) decline();
    return { value, paths: this.paths, top: this.top };
  }

  /** The next line that is neither blank nor a comment (not consumed). */
  private peek(): Line | undefined {
    for (; this.next < this.raw.length; this.next++) {
      const cached = this.lines[this.next];
      if (cached) return cached;
      const raw = this.raw[this.next] as string;
      const text = withoutSpaces(raw);
      if (text === '' || text.startsWith('#')) continue;
      const line = { no: this.next + 1, indent: raw.length - text.length, text };
      this.lines[this.next] = line;
      return line;
    }
    return undefined;
  }

  private record(path: string, line: number, topKey: string | undefined): void {
    this.paths.set(path, line);
    if (topKey !== undefined) this.top.set(topKey, line);
  }

  private mapping(indent: number, prefix: string | undefined, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) decline();
    const out: Record<string, unknown> = {};
    let keys = 0;
    for (let line = this.peek(); line && line.indent >= indent; line = this.peek()) {
      if (line.indent > indent) decline();
      const m = KEY.exec(line.text);
      const key = m?.[1];
      if (!m || key === undefined || !plainKey(key) || Object.hasOwn(out, key) || ++keys > MAX_KEYS) return decline();
      const path = prefix === undefined ? key : `${prefix}\0${key}`;
      this.record(path, line.no, prefix === undefined ? key : undefined);
      this.next++;
      out[key] = this.value(line.text.slice(m[0].length), line, indent, path, depth, prefix === undefined ? key : undefined);
    }
    return out;
  }

  /** The value after `key: ` (`rest`) on `line`, of a mapping at `indent`. */
  private value(rest: string, line: Line, indent: number, path: string, depth: number, topKey: string | undefined): unknown {
    if (rest === '' || rest.startsWith('#')) {
      const below = this.peek();
      if (!below || below.indent < indent) return null;
      const dash = below.text === '-' || below.text.startsWith('- ');
      if (below.indent === indent) return dash ? this.sequence(indent, path, depth + 1, topKey) : null;
      return dash ? this.sequence(below.indent, path, depth + 1, topKey) : this.mapping(below.indent, path, depth + 1);
    }
    return this.scalar(rest, line, indent, path, topKey);
  }

  private sequence(indent: number, path: string, depth: number, topKey: string | undefined): unknown[] {
    if (depth > MAX_DEPTH) decline();
    const out: unknown[] = [];
    for (let line = this.peek(); line && line.indent === indent && line.text.startsWith('- '); line = this.peek()) {
      const itemPath = `${path}\0${out.length}`;
      this.record(itemPath, line.no, topKey === undefined ? undefined : `${topKey}\0${out.length}`);
      const after = line.text.slice(2);
      const rest = withoutSpaces(after);
      if (rest === '' || rest.startsWith('#') || rest.startsWith('- ') || rest === '-') decline();
      if (KEY.test(rest)) {
        // `- key: value`: a mapping whose first key is on the dash's line.
        const inner = indent + 2 + after.length - rest.length;
        this.lines[this.next] = { no: line.no, indent: inner, text: rest };
        out.push(this.mapping(inner, itemPath, depth + 1));
      } else {
        this.next++;
        out.push(this.scalar(rest, line, indent, itemPath, undefined));
      }
    }
    const stop = this.peek();
    if (stop && stop.indent === indent && stop.text === '-') decline();
    return out;
  }

  /** A scalar or flow collection written on one line (a block scalar goes on below it). */
  private scalar(text: string, line: Line, indent: number, path: string, topKey: string | undefined): unknown {
    const c = text[0];
    if (c === '"' || c === "'") {
      const { value, end } = quoted(text, 0);
      if (!REST.test(text.slice(end))) decline();
      return value;
    }
    if (c === '[' || c === '{') return this.flow(text, line.no, path, topKey);
    if (c === '|' || c === '>') return this.blockScalar(text, indent);
    const hash = text.indexOf(' #');
    const plain = trimSpacesEnd(hash < 0 ? text : text.slice(0, hash));
    if (INDICATOR_FIRST.test(plain) && !/^-[^\s]/.test(plain)) decline();
    if (plain.includes(': ') || plain.endsWith(':')) decline();
    return resolvePlain(plain);
  }

  /** `[a, b]` or `{ a: 1, b: [x, y] }`, on one line. */
  private flow(text: string, lineNo: number, path: string, topKey: string | undefined): unknown {
    if ((text.match(/[[{]/g)?.length ?? 0) > MAX_FLOW_DEPTH) decline();
    const { value, end } = new FlowReader(text, lineNo, this.paths).collection(
      0,
      path,
      topKey === undefined ? undefined : [topKey, this.top],
    );
    if (!REST.test(text.slice(end))) decline();
    return value;
  }

  /** `|`, `|-`, `>`, `>-` and the lines below, indented more than `indent`. */
  private blockScalar(header: string, indent: number): string {
    if (!/^[|>]-?$/.test(header)) decline();
    const lines: string[] = [];
    let at = -1;
    const start = this.next;
    let last = -1; // index in raw of the last line with content
    let j = start;
    for (; j < this.raw.length; j++) {
      const raw = this.raw[j] as string;
      if (raw === '') {
        lines.push('');
        continue;
      }
      const text = withoutSpaces(raw);
      const ind = raw.length - text.length;
      if (text === '') decline(); // a line of spaces only
      if (ind <= indent) break;
      if (at < 0) {
        if (lines.length > 0) decline(); // blank lines first
        at = ind;
      } else if (ind < at) {
        decline();
      }
      if (raw.endsWith(' ')) decline();
      lines.push(raw.slice(at));
      last = j;
    }
    if (at < 0) decline();
    this.next = j;
    const content = lines.slice(0, last - start + 1);
    let value: string;
    if (header[0] === '|') {
      value = content.join('\n');
    } else {
      if (content.some((l) => l.startsWith(' '))) decline();
      value = '';
      let blank = 0;
      for (const l of content) {
        if (l === '') {
          blank++;
          continue;
        }
        if (value !== '') value += blank === 0 ? ' ' : '\n'.repeat(blank);
        value += l;
        blank = 0;
      }
    }
    // Clip keeps one line break at the end (the `yaml` package adds it at the end of the text too).
    return header.endsWith('-') ? value : `${value}\n`;
  }
}

/** Flow collections of scalars and flow collections within one line. */
class FlowReader {
  constructor(
    private readonly text: string,
    private readonly line: number,
    private readonly paths: Map<string, number>,
  ) {}

  /** The collection that starts at `at`; `top`: the key of a top-level list, whose items' lines go to the map beside it. */
  collection(at: number, path: string, top?: [string, Map<string, number>]): { value: unknown; end: number } {
    const list = this.text[at] === '[';
    const close = list ? ']' : '}';
    const out: unknown[] | Record<string, unknown> = list ? [] : {};
    let i = this.space(at + 1);
    if (this.text[i] === close) return { value: out, end: i + 1 };
    for (;;) {
      if (Array.isArray(out)) {
        const itemPath = `${path}\0${out.length}`;
        this.paths.set(itemPath, this.line);
        if (top) top[1].set(`${top[0]}\0${out.length}`, this.line);
        const item = this.item(i, itemPath);
        out.push(item.value);
        i = item.end;
      } else {
        const m = /^(\w[\w./-]*): +/.exec(this.text.slice(i));
        const key = m?.[1];
        if (!m || key === undefined || !plainKey(key) || Object.hasOwn(out, key)) return decline();
        this.paths.set(`${path}\0${key}`, this.line);
        const item = this.item(i + m[0].length, `${path}\0${key}`);
        out[key] = item.value;
        i = item.end;
      }
      i = this.space(i);
      const c = this.text[i];
      if (c === close) return { value: out, end: i + 1 };
      if (c !== ',') decline();
      i = this.space(i + 1);
      if (this.text[i] === close || this.text[i] === ',') decline(); // a trailing or an empty item
    }
  }

  private space(i: number): number {
    while (this.text[i] === ' ') i++;
    return i;
  }

  /** A scalar or a collection inside a flow collection, ending before the `,` or bracket that follows. */
  private item(at: number, path: string): { value: unknown; end: number } {
    const c = this.text[at];
    if (c === '[' || c === '{') return this.collection(at, path);
    if (c === '"' || c === "'") return quoted(this.text, at);
    const m = /^[^,[\]{}]*/.exec(this.text.slice(at)) as RegExpExecArray;
    const plain = trimSpacesEnd(m[0]);
    if (plain === '' || /[:#]/.test(plain) || (INDICATOR_FIRST.test(plain) && !/^-[^\s]/.test(plain))) decline();
    return { value: resolvePlain(plain), end: at + plain.length };
  }
}

/** A quoted scalar starting at `start`: single quotes with `''`, double quotes without escapes. */
function quoted(text: string, start: number): { value: string; end: number } {
  const q = text[start];
  let value = '';
  let i = start + 1;
  for (;;) {
    const close = text.indexOf(q as string, i);
    if (close < 0) return decline();
    value += text.slice(i, close);
    if (q === "'" && text[close + 1] === "'") {
      value += "'";
      i = close + 2;
      continue;
    }
    if (q === '"' && value.includes('\\')) decline();
    return { value, end: close + 1 };
  }
}

/** Whether the core schema reads `key` as this very string, and a plain object keeps it as any other key. */
function plainKey(key: string): boolean {
  // YAML allows an implicit key at most 1024 characters long.
  return key.length <= 1000 && key !== '__proto__' && resolvePlain(key) === key;
}

/** A plain scalar as YAML 1.2's core schema reads it (the `yaml` package's tags). */
function resolvePlain(s: string): unknown {
  if (s === '' || NULL.test(s)) return null;
  if (BOOL.test(s)) return s[0] === 't' || s[0] === 'T';
  if (INT.test(s)) return parseInt(s, 10);
  if (FLOAT.test(s)) return parseFloat(s);
  if (OTHER_NUMBER.test(s)) decline();
  return s;
}
