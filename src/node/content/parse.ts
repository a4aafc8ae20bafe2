// Parsing one file's text: YAML documents (YAML 1.2 via the `yaml` package, so `2021-11-25` stays
// a string; the usual shapes through a fast path that gives the same: simple-yaml.ts), JSON
// entries, and Markdown with YAML front matter (split as gray-matter does: front-matter.ts).
// Each result keeps the line of every top-level key (and of each item of a top-level list) so
// that later validation can point at the right line without keeping the YAML documents around.
import type { Document, YAMLWarning } from 'yaml';
import { frontMatterLanguage, splitFrontMatter } from './front-matter.js';
import { rewrittenNumbers } from './number-text.js';
import { describe, isPlainObject } from './issues.js';
import { conflictMarkers } from './conflict-markers.js';
import { jsonTopLines, parseJson } from './json.js';
import { TOO_DEEP } from './limits.js';
import { commentedKeys, flowColourProblems } from './unquoted-colour.js';
import { parseSimpleYaml, type SimpleYaml } from './simple-yaml.js';
import {
  aliasMistakes,
  aliasProblem,
  checkDocument,
  flowTooDeep,
  tooManyItems,
  TOO_MANY_ALIAS_USES,
  TOO_MANY_ALIASES,
} from './yaml-checks.js';
import { ODD_SPACE_AFTER_KEY, oddSpaceAdvice, yamlMistakes } from './yaml-mistakes.js';
import { yamlPackage } from './yaml-package.js';

export interface ParseProblem {
  readonly line?: number | undefined;
  readonly message: string;
  /** The lines around it, with a caret (code-frame.ts), printed under the message. */
  readonly frame?: string;
}

export interface ParsedYaml {
  /** The plain JavaScript value, or undefined when the document is broken. */
  readonly value: unknown;
  readonly problems: readonly ParseProblem[];
  /** Line (1-based) of the key or list item at `path`, else of the nearest known ancestor. */
  lineOf(path: readonly (string | number)[]): number | undefined;
  /** Line of every key and list item, by path (segments joined by NUL); what lineOf() looks in. */
  paths(): ReadonlyMap<string, number>;
}

// Duplicate keys are found by checkDocument(), in linear time (see yaml-checks.ts).
const YAML_OPTIONS = { version: '1.2', uniqueKeys: false, prettyErrors: false } as const;

/** Parses a YAML document; `firstLine` is the file line on which `text` begins. A value no field can keep is a problem here. */
export function parseYaml(text: string, firstLine = 1): ParsedYaml {
  const whole = wholeTextProblem(text);
  if (whole) return { ...EMPTY_YAML, value: undefined, problems: [whole] };
  const { parsed, unkept } = parseYamlDocument(text, firstLine);
  if (unkept.length === 0) return parsed;
  return { ...parsed, value: undefined, problems: unkept.map((u) => ({ line: u.line, message: unkeptMessage(u, u.path) })) };
}

/**
 * What is wrong with the text as a whole, before it is parsed: a git conflict left in it, or lines
 * ended by CR alone (classic Mac OS), which every parser reads as one line (found from outside:
 * "front matter is not closed" for a file that has its '---').
 */
function wholeTextProblem(text: string): ParseProblem | undefined {
  if (text.includes('\r') && !text.includes('\n') && /\r(?!$)/.test(text))
    return {
      line: 1,
      message:
        'its lines end with a carriage return alone (CR, as classic Mac OS saved text), so it reads as one line: save it with LF (or CRLF) line ends',
    };
  return conflictMarkers(text);
}

type YamlDocument = { parsed: ParsedYaml; topLines: () => Map<string, number> };

/**
 * parseYaml(), the lines of the top-level keys, for an entry (see topLines()), and the values no
 * field can keep (left in the value: an entry reports them by field, along with its other problems).
 */
function parseYamlDocument(text: string, firstLine: number, shownFirstLine?: string): YamlDocument & { unkept: UnkeptValue[] } {
  const crowded = tooManyItems(text, firstLine);
  if (crowded) return { parsed: { ...EMPTY_YAML, value: undefined, problems: [crowded] }, topLines: () => new Map(), unkept: [] };
  const simple = parseSimpleYaml(text);
  const doc = simple ? simpleDocument(simple, firstLine) : parseYamlFully(text, firstLine, shownFirstLine);
  // Looked for only where the text could hold one: a tag, a long number, a large exponent.
  if (doc.parsed.problems.length > 0 || !MAYBE_UNKEPT.test(text)) return { ...doc, unkept: [] };
  return { ...doc, unkept: unkeptValues(doc.parsed.value, doc.parsed.lineOf, longIntegers(text)) };
}

// A tag, a long decimal, hex or octal number, a three-digit exponent (`1e400`, `1.e400`), .inf or .nan.
const MAYBE_UNKEPT = /!!|\d{16}|0x[0-9a-fA-F]{14}|[\d.][eE]\+?\d{3}|\.(?:inf|Inf|INF|nan|NaN|NAN)\b/;

/**
 * The whole numbers the text writes out digit by digit (decimal, hex, octal) that a double holds
 * only approximately. One written with an exponent (`6.02e23`) is kept as written: not among them.
 */
function longIntegers(text: string): Set<number> {
  const out = new Set<number>();
  for (const m of text.matchAll(/(?<![\w.])([-+]?)(\d{16,}|0x[0-9a-fA-F]{14,}|0o[0-7]{16,})(?![\w.])/g)) {
    const n = Number(m[2]) * (m[1] === '-' ? -1 : 1);
    if (!Number.isSafeInteger(n)) out.add(n);
  }
  return out;
}

/** What a value no field can keep is: see unkeptValues(). */
export type UnkeptKind = 'nan' | 'infinity' | 'long' | 'binary' | 'set' | 'map' | 'timestamp';

export interface UnkeptValue {
  readonly path: readonly (string | number)[];
  readonly line: number | undefined;
  readonly kind: UnkeptKind;
}

const UNKEPT: Record<UnkeptKind, [what: string, fix: string]> = {
  nan: ['.nan (not a number) is no value JSON can hold', 'quote it to keep it as text'],
  infinity: ['reads as Infinity (a number beyond 1.8e308, or .inf), which JSON cannot hold', 'quote it to keep it as text'],
  long: ['a whole number beyond 9,007,199,254,740,991 loses its last digits as a number', 'quote it to keep it as text'],
  binary: ['binary data (!!binary) is no value a field can hold', 'write it as text (base64) without the tag'],
  set: ['a set (!!set) is no value a field can hold', 'write it without the tag'],
  map: ['an ordered map (!!omap, !!pairs) is no value a field can hold', 'write it without the tag'],
  timestamp: ['a !!timestamp is no value a field can hold', 'write it without the tag'],
};

/**
 * `path: what it is: what to write`; `path` as the message names it (entries name the field
 * apart), `fix` when the field's type calls for other advice than the usual (see entries.ts).
 */
export function unkeptMessage(u: UnkeptValue, path: readonly (string | number)[], fix?: string): string {
  const [what, usual] = UNKEPT[u.kind];
  return `${path.length ? `${path.join('.')}: ` : ''}${what}: ${fix ?? usual}`;
}

/**
 * Values YAML reads that no field can keep as written: binary data (`!!binary`), a set or ordered
 * map (`!!set`, `!!omap`), a number beyond a double's range (`1e400` is Infinity) or a whole
 * number beyond 2^53 (its last digits are lost). Each is said with its line, never passed on changed.
 */
function unkeptValues(value: unknown, lineOf: ParsedYaml['lineOf'], long: ReadonlySet<number>): UnkeptValue[] {
  const found: UnkeptValue[] = [];
  const walk = (v: unknown, path: (string | number)[]): void => {
    if (found.length >= 20) return;
    const at = (kind: UnkeptKind) => found.push({ path, line: lineOf(path), kind });
    if (typeof v === 'number') {
      if (Number.isNaN(v)) at('nan');
      else if (!Number.isFinite(v)) at('infinity');
      else if (long.has(v)) at('long');
    } else if (ArrayBuffer.isView(v)) at('binary');
    else if (v instanceof Set) at('set');
    else if (v instanceof Map) at('map');
    else if (v instanceof Date) at('timestamp');
    else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) walk(v[i], [...path, i]);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(value, []);
  return found;
}

/**
 * parseYamlDocument() by the `yaml` package alone: what the fast path must agree with
 * (test/content/simple-yaml.test.ts). `shownFirstLine`: see yamlMistakes().
 */
export function parseYamlFully(text: string, firstLine = 1, shownFirstLine?: string): YamlDocument {
  const { LineCounter, parseDocument } = yamlPackage();
  const lineCounter = new LineCounter();
  const lineAt = (offset: number) => lineCounter.linePos(offset).line + firstLine - 1;
  const tooDeep = flowTooDeep(text, (offset) => text.slice(0, offset).split('\n').length + firstLine - 1);
  if (tooDeep) return { parsed: { ...EMPTY_YAML, value: undefined, problems: [tooDeep] }, topLines: () => new Map() };
  const doc = parseDocument(text, { ...YAML_OPTIONS, lineCounter });
  const rowCol = (offset: number): [number, number] => {
    const { line, col } = lineCounter.linePos(offset);
    return [line - 1, col - 1];
  };
  const tooDeepError = doc.errors.find((e) => e.message.startsWith('Maximum call stack size exceeded'));
  let problems: ParseProblem[] = tooDeepError
    ? [{ line: lineAt(tooDeepError.pos[0]), message: TOO_DEEP }]
    : yamlMistakes(text, doc.errors, rowCol, firstLine, shownFirstLine);
  const colours = problems.length > 0 ? flowColourProblems(text, lineAt) : [];
  // The parser's errors from such a colour on are what the comment broke: the hint says it better.
  if (colours.length > 0) problems = [...problems.filter((p) => (p.line ?? 0) < (colours[0]?.line ?? 0)), ...colours];
  if (problems.length === 0) problems = unknownTags(text, doc.warnings, lineAt);
  if (problems.length === 0 && text.includes('&')) problems = entityAnchors(doc, text, lineAt);
  let value: unknown;
  if (problems.length === 0) {
    const checked = checkDocument(doc, lineAt);
    problems = checked.problems;
    const aliases = checked.firstAlias !== undefined && problems.length === 0 ? aliasMistakes(doc, lineAt) : undefined;
    if (aliases) problems = aliases.problems;
    try {
      if (problems.length === 0) value = doc.toJS({ maxAliasCount: 1000 });
    } catch (err) {
      const aliasCount = /alias/i.test((err as Error).message);
      problems.push(
        aliasCount && aliases?.repeatLine !== undefined
          ? { line: aliases.repeatLine, message: TOO_MANY_ALIASES }
          : aliasCount && checked.firstAlias !== undefined
            ? { line: lineAt(checked.firstAlias), message: TOO_MANY_ALIAS_USES }
            : { line: undefined, message: yamlMessage((err as Error).message) },
      );
    }
    const nesting = checked.firstAlias !== undefined && problems.length === 0 ? aliasProblem(value) : undefined;
    if (nesting) {
      problems.push({ line: lineAt(checked.firstAlias as number), message: nesting });
      value = undefined;
    }
  }
  let lines: Map<string, number> | undefined;
  const paths = () => (lines ??= pathLines(doc, lineAt));
  return { parsed: { value, problems, paths, lineOf: (path) => lineInPaths(paths(), path) }, topLines: () => topLines(doc, lineAt) };
}

/**
 * `title: !important note`: YAML reads `!important` as a tag it does not know and keeps only
 * `note`, a warning the yaml package gives and nobody saw (found from outside). Said as the
 * mistake it is, with the value quoted when the rest of the line is that value.
 */
function unknownTags(text: string, warnings: readonly YAMLWarning[], lineAt: (offset: number) => number): ParseProblem[] {
  return warnings
    .filter((w) => w.code === 'TAG_RESOLVE_FAILED')
    .slice(0, 20)
    .map((w) => {
      const start = w.pos[0];
      const end = text.indexOf('\n', start);
      const rest = text.slice(start, end < 0 ? text.length : end).trim();
      const tag = /^!\S*/.exec(rest)?.[0] ?? '!';
      const quoted = /[,[\]{}#"]/.test(rest) ? '' : ` (${JSON.stringify(rest)})`;
      return {
        line: lineAt(start),
        message: `'${tag}' is read as a YAML tag (a name after '!'), which drops it from the value: quote the value to keep it as written${quoted}`,
      };
    });
}

/** An anchor named like an HTML character reference: `&nbsp;`, `&copy;`, `&#169;`, `&#xA9;`. */
const ENTITY_ANCHOR = /^(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);/;

/**
 * `footer: &copy; 2024 Ann`: YAML reads `&copy;` as an anchor (a name for the value after it) and
 * serves `2024 Ann`, or null when nothing follows (found from outside). Said as that mistake.
 */
function entityAnchors(doc: Document, text: string, lineAt: (offset: number) => number): ParseProblem[] {
  const problems: ParseProblem[] = [];
  yamlPackage().visit(doc, (_, node) => {
    const anchor = (node as { anchor?: string } | null)?.anchor;
    const range = (node as { range?: [number, number, number] } | null)?.range;
    if (anchor === undefined || !range || !ENTITY_ANCHOR.test(anchor) || problems.length >= 20) return;
    const at = text.lastIndexOf(`&${anchor}`, range[0]);
    const end = text.indexOf('\n', at);
    // A plain value that goes on over more lines is quoted as YAML folds it (its `source`).
    const folded = (node as { type?: string }).type === 'PLAIN' && end >= 0 && range[1] > end;
    const rest = folded ? `&${anchor} ${(node as { source?: string }).source}` : text.slice(at, end < 0 ? text.length : end).trim();
    const quoted = /[,[\]{}"]|\s#/.test(rest) ? '' : ` (${JSON.stringify(rest)})`;
    problems.push({
      line: lineAt(at < 0 ? range[0] : at),
      message: `'&${anchor.slice(0, anchor.indexOf(';') + 1)}' is read as a YAML anchor (a name after '&'), which drops it from the value: quote the value to keep it as written${quoted}`,
    });
  });
  return problems;
}

/** What the fast path read, as parseYamlDocument() gives it. */
function simpleDocument({ value, paths, top }: SimpleYaml, firstLine: number): YamlDocument {
  const shift = (lines: Map<string, number>) =>
    firstLine === 1 ? lines : new Map([...lines].map(([k, line]) => [k, line + firstLine - 1]));
  const lines = shift(paths);
  return { parsed: { value, problems: [], paths: () => lines, lineOf: (path) => lineInPaths(lines, path) }, topLines: () => shift(top) };
}

/** topLines() of a text that parseYaml() accepted. */
function yamlTopLines(text: string): Map<string, number> {
  const simple = parseSimpleYaml(text);
  if (simple) return simple.top;
  const { LineCounter, parseDocument } = yamlPackage();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...YAML_OPTIONS, lineCounter });
  return topLines(doc, (offset) => lineCounter.linePos(offset).line);
}

/**
 * Line of each top-level key, and `key\0index` → line of each item of a top-level list: one walk
 * over the top-level mapping (cheaper than a lineOf() call per key).
 */
function topLines(doc: Document, lineAt: (offset: number) => number): Map<string, number> {
  const { isMap, isScalar, isSeq } = yamlPackage();
  const lines = new Map<string, number>();
  if (!isMap(doc.contents)) return lines;
  for (const pair of doc.contents.items) {
    const key = pair.key as { value?: unknown; range?: [number, number, number] } | null;
    if (!isScalar(key) || !key.range) continue;
    const name = String(key.value);
    lines.set(name, lineAt(key.range[0]));
    if (isSeq(pair.value)) {
      pair.value.items.forEach((item, i) => {
        const range = (item as { range?: [number, number, number] } | null)?.range;
        if (range) lines.set(`${name}\0${i}`, lineAt(range[0]));
      });
    }
  }
  return lines;
}

function yamlMessage(message: string): string {
  // The composer gives up on nesting deeper than the call stack allows.
  if (message.startsWith('Maximum call stack size exceeded')) return TOO_DEEP;
  return `broken YAML: ${message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}`;
}

/**
 * Line of every key and list item, by path (segments joined by NUL), in one walk. Made when the
 * first line is asked for; a search of the mapping per call made checking every key of a large
 * mapping quadratic.
 */
function pathLines(doc: Document, lineAt: (offset: number) => number): Map<string, number> {
  const { isMap, isScalar, isSeq } = yamlPackage();
  const lines = new Map<string, number>();
  const stack: [node: unknown, path: string | undefined][] = [[doc.contents, undefined]];
  while (stack.length > 0) {
    const [node, prefix] = stack.pop() as [unknown, string | undefined];
    const at = (segment: string) => (prefix === undefined ? segment : `${prefix}\0${segment}`);
    if (isMap(node)) {
      for (const pair of node.items) {
        const path = isScalar(pair.key) && pair.key.range ? at(String(pair.key.value)) : undefined;
        if (path === undefined || lines.has(path)) continue; // the first of duplicate keys, as a search finds it
        lines.set(path, lineAt((pair.key as { range: [number, number, number] }).range[0]));
        stack.push([pair.value, path]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const range = (item as { range?: [number, number, number] } | null)?.range;
        if (!range) return;
        lines.set(at(String(i)), lineAt(range[0]));
        stack.push([item, at(String(i))]);
      });
    }
  }
  return lines;
}

/** Line of the key or item at `path`, else of its nearest ancestor that has one. */
export function lineInPaths(lines: ReadonlyMap<string, number>, path: readonly (string | number)[]): number | undefined {
  for (let k = path.length; k > 0; k--) {
    const line = lines.get(path.slice(0, k).join('\0'));
    if (line !== undefined) return line;
  }
  return undefined;
}

/** An entry file, parsed: its fields, the Markdown body, and where things are. */
export interface ParsedEntry {
  /** The mapping of keys to values; undefined when the file could not be parsed. */
  readonly data: Record<string, unknown> | undefined;
  /** The Markdown body (Markdown files only). */
  readonly body?: string | undefined;
  readonly bodyLine?: number | undefined;
  readonly problems: readonly ParseProblem[];
  /** Top-level key → line, and `key\0index` → line of a list item. */
  readonly lines: ReadonlyMap<string, number>;
  /** Top-level keys written `key: #…` (no value, then a comment), or `key: text #…` (a text cut short) → the comment. */
  readonly comments?: ReadonlyMap<string, string> | undefined;
  /** Numbers written in a form that prints otherwise (`007`, `1.10`) → as written (number-text.ts). */
  readonly numbers?: ReadonlyMap<string, string> | undefined;
  /** Values no field can keep (their top-level keys are null in `data`): errors of their fields. */
  readonly unkept?: readonly UnkeptValue[] | undefined;
}

export function entryLine(parsed: ParsedEntry, key: string, index?: number): number | undefined {
  if (index !== undefined) {
    const item = parsed.lines.get(`${key}\0${index}`);
    if (item !== undefined) return item;
  }
  return parsed.lines.get(key);
}

export type EntryFormat = 'markdown' | 'yaml' | 'json';

export function entryFormat(fileName: string): EntryFormat | undefined {
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'yaml' || ext === 'yml') return 'yaml';
  if (ext === 'json') return 'json';
  return undefined;
}

/**
 * `eagerLines`: work out the key lines now, from the parse at hand, rather than by parsing again
 * when a message needs them (see withLazyLines).
 */
export function parseEntry(format: EntryFormat, source: string, eagerLines = false): ParsedEntry {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const whole = wholeTextProblem(text);
  if (whole) return broken([whole]);
  if (format === 'markdown') return parseMarkdown(text, eagerLines);
  if (format === 'json') {
    const { value, problems, unkept, numbers } = parseJson(text);
    return problems.length > 0
      ? broken(problems)
      : asEntry(value, 1, { source: text, json: true, lines: eagerLines ? jsonTopLines(text) : undefined }, undefined, unkept, numbers);
  }
  if (text.trim() === '') return asEntry({}, 1, { source: text, lines: undefined });
  const { parsed, topLines: lines, unkept } = parseYamlDocument(text, 1);
  if (parsed.problems.length > 0) return broken([...parsed.problems]);
  return asEntry(parsed.value, 1, { source: text, lines: eagerLines ? lines() : undefined }, undefined, unkept);
}

function broken(problems: ParseProblem[]): ParsedEntry {
  return { data: undefined, problems, lines: new Map() };
}

/** `from.source`: the text the value came from (its line 1 is line 1 of the file). */
function asEntry(
  value: unknown,
  firstLine: number,
  from: { source: string; json?: true; lines: Map<string, number> | undefined },
  body?: { text: string; line: number },
  unkept: readonly UnkeptValue[] = [],
  /** JSON's, found by its scan (json.ts); YAML's are found here. */
  jsonNumbers?: Map<string, string>,
): ParsedEntry {
  const whole = unkept.find((u) => u.path.length === 0);
  if (whole) return broken([{ line: whole.line ?? firstLine, message: unkeptMessage(whole, []) }]);
  const given = value ?? {};
  if (!isPlainObject(given)) {
    // `title:Hello` is one text to YAML, which needs a space after the colon (found from outside).
    const glued = typeof given === 'string' ? /^([A-Za-z_][\w-]*):(\S+)/.exec(given) : null;
    // A no-break space after the colon, pasted from a word processor, is no space to YAML either.
    const odd = typeof given === 'string' ? ODD_SPACE_AFTER_KEY.exec(given) : null;
    const hint = glued
      ? `: add a space after ':' (${glued[1]}: ${glued[2]})`
      : odd
        ? `: ${oddSpaceAdvice(odd[1] as string, odd[2] as string, odd[3] as string, 'a no-break space')}`
        : '';
    return broken([{ line: firstLine, message: `expected a mapping of field names to values, got ${describe(given)}${hint}` }]);
  }
  let data: Record<string, unknown> = given;
  // The fields of such values are reported as errors with the entry's others (entries.ts); what
  // YAML made of them (NaN, Infinity, bytes, a Set) goes no further.
  if (unkept.length > 0) data = { ...data, ...Object.fromEntries(unkept.map((u) => [u.path[0], null])) };
  const comments = from.json ? undefined : commentedKeys(from.source, data);
  const numbers = from.json ? jsonNumbers : rewrittenNumbers(from.source, data);
  return withLazyLines({
    data,
    body: body?.text,
    bodyLine: body?.line,
    problems: [],
    comments,
    numbers,
    ...(unkept.length > 0 ? { unkept } : {}),
    ...from,
  });
}

/**
 * A parsed entry as plain data, for a worker thread to post back: everything but the line map,
 * which is made again from `source` when a message needs it, unless it comes along.
 */
export interface PortableEntry extends Omit<ParsedEntry, 'lines'> {
  /** The front matter, YAML or JSON text. */
  readonly source: string;
  readonly json?: true | undefined;
  readonly lines?: ReadonlyMap<string, number> | undefined;
}

/** The text an entry's lines are worked out from (a property of its own: a WeakMap cost more, found in a profile). */
const SOURCE = Symbol('source');
type WithSource = ParsedEntry & { readonly [SOURCE]?: { source: string; json?: true | undefined } };

export function toPortable(parsed: ParsedEntry): PortableEntry {
  const { data, body, bodyLine, problems, comments, numbers, unkept } = parsed;
  return {
    data,
    body,
    bodyLine,
    problems,
    comments,
    numbers,
    ...(unkept ? { unkept } : {}),
    source: '',
    ...(parsed as WithSource)[SOURCE],
  };
}

export function fromPortable(portable: PortableEntry): ParsedEntry {
  return portable.data === undefined ? broken([...portable.problems]) : withLazyLines(portable);
}

function withLazyLines(p: PortableEntry): ParsedEntry {
  // Lines are needed only for messages, which are rare: parsing again then costs less than a
  // map per file for as long as the file's parse result is kept (the whole tree under --watch).
  const { source, json } = p;
  let lines = p.lines;
  const entry: WithSource = {
    data: p.data,
    body: p.body,
    bodyLine: p.bodyLine,
    problems: p.problems,
    comments: p.comments,
    numbers: p.numbers,
    ...(p.unkept ? { unkept: p.unkept } : {}),
    [SOURCE]: { source, json },
    get lines() {
      lines ??= source.trim() === '' ? new Map<string, number>() : json ? jsonTopLines(source) : yamlTopLines(source);
      return lines;
    },
  };
  return entry;
}

export const EMPTY_YAML: ParsedYaml = { value: {}, problems: [], lineOf: () => undefined, paths: () => new Map() };

// A line that opens front matter in other tools, then a `key:` line: front matter that is not
// read (it would be served as the body, and a required field reported missing).
const OTHER_OPENING = /^(?<blank>(?:[ \t]*\r?\n)*)(?<fence>\+\+\+|-{4,}|---)[ \t]*\r?\n[ \t]*["']?[A-Za-z_][\w-]*["']?[ \t]*[:=]/;

/** Front matter written where or how it is not read: after blank lines, in TOML, or opened with more than three dashes. */
function misplacedFrontMatter(text: string): ParseProblem | undefined {
  const m = OTHER_OPENING.exec(text);
  if (!m?.groups) return undefined;
  const { blank = '', fence = '' } = m.groups;
  const line = blank.split('\n').length;
  if (fence === '+++') return { line, message: "TOML front matter (+++) is not read: write it as YAML between '---' lines" };
  if (fence !== '---') return { line, message: `front matter opens with exactly three dashes: write '---', not '${fence}'` };
  if (blank === '') return undefined;
  const lines = line - 1;
  return {
    line,
    message: `front matter must start on line 1: remove the ${lines} blank line${lines === 1 ? '' : 's'} before '---' (else it is read as the body)`,
  };
}

// A line `...` (YAML's document end) at the start of a line, before the closing `---`.
const DOTS_CLOSE = /^\.\.\.[ \t]*\r?$/m;

/**
 * Front matter closed with `...`, as Jekyll and Pandoc allow: gray-matter (and so cqa) reads on to
 * the next `---`, a rule in the body or none (found from outside: "not closed", or "'---' starts a
 * second YAML document" on a line of the body). In YAML a `...` line ends the document, so it is
 * never a value of the front matter; right before the closing `---` it ends it as that would.
 */
function dotsClosing(text: string): ParseProblem | undefined {
  if (!/^---(?!-)/.test(text)) return undefined;
  const close = text.indexOf('\n---', 3);
  const front = close === -1 ? text : text.slice(0, close + 1);
  const m = DOTS_CLOSE.exec(front);
  // `...` right before the closing `---` (blank and comment lines between) ends the YAML there: fine.
  if (!m || (close !== -1 && /^(?:[ \t]*(?:#.*)?\r?\n)*$/.test(front.slice(m.index + m[0].length + 1)))) return undefined;
  return {
    line: front.slice(0, m.index).split('\n').length,
    message:
      "front matter is closed with '...', which cqa does not read as its end (the front matter would go on to the next '---'): write '---' on this line",
  };
}

function parseMarkdown(text: string, eagerLines: boolean): ParsedEntry {
  const dots = dotsClosing(text);
  if (dots) return broken([dots]);
  // gray-matter treats a missing closing delimiter as "everything is front matter"; say so instead.
  if (/^---(?!-)/.test(text) && text.indexOf('\n---', 3) === -1) {
    return broken([{ line: 1, message: "front matter is not closed: add a line '---' after it" }]);
  }
  const { front: matter, body: content } = splitFrontMatter(text);
  const misplaced = matter ? undefined : misplacedFrontMatter(text);
  if (misplaced) return broken([misplaced]);
  let front: ParsedYaml = EMPTY_YAML;
  let frontLines = () => new Map<string, number>();
  let frontText = '';
  let unkept: UnkeptValue[] = [];
  if (matter && !matter.empty) {
    const language = frontMatterLanguage(matter.language);
    if ('unsupported' in language)
      return broken([{ line: 1, message: `front matter language '${language.unsupported}' is not supported; use YAML` }]);
    // The front matter is the text right after the opening '---' (the rest of line 1 included),
    // so line N of it is line N of the file. With CRLF line ends the last line keeps its '\r'.
    frontText = matter.matter.replace(/\r$/, '');
    const opening = text.slice(0, text.search(/\r?\n|$/));
    ({ parsed: front, topLines: frontLines, unkept } = parseYamlDocument(frontText, 1, opening));
  }
  const bodyLine = text.endsWith(content) ? text.slice(0, text.length - content.length).split('\n').length : undefined;
  if (front.problems.length > 0) return broken([...front.problems]);
  const lines = eagerLines ? frontLines() : undefined;
  return asEntry(front.value, 2, { source: frontText, lines }, { text: content, line: bodyLine ?? 1 }, unkept);
}
