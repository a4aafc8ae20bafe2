// Parsing one file's text: YAML documents (YAML 1.2 via the `yaml` package, so `2021-11-25` stays
// a string), JSON entries, and Markdown with YAML front matter (gray-matter with our YAML engine).
// Each result keeps the line of every top-level key (and of each item of a top-level list) so
// that later validation can point at the right line without keeping the YAML documents around.
import matter from 'gray-matter';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { describe, isPlainObject } from './issues.js';

export interface ParseProblem {
  readonly line?: number | undefined;
  readonly message: string;
}

export interface ParsedYaml {
  /** The plain JavaScript value, or undefined when the document is broken. */
  readonly value: unknown;
  readonly problems: readonly ParseProblem[];
  /** Line (1-based) of the key or list item at `path`, else of the nearest known ancestor. */
  lineOf(path: readonly (string | number)[]): number | undefined;
  /** Line of each top-level key, and `key\0index` → line of each item of a top-level list. */
  topLines(): Map<string, number>;
}

const YAML_OPTIONS = { version: '1.2', uniqueKeys: true, prettyErrors: false } as const;

/** Parses a YAML document; `firstLine` is the file line on which `text` begins. */
export function parseYaml(text: string, firstLine = 1): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...YAML_OPTIONS, lineCounter });
  const lineAt = (offset: number) => lineCounter.linePos(offset).line + firstLine - 1;
  const problems: ParseProblem[] = doc.errors.map((e) => ({ line: lineAt(e.pos[0]), message: yamlMessage(e.message) }));
  let value: unknown;
  if (problems.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (err) {
      problems.push({ line: undefined, message: yamlMessage((err as Error).message) });
    }
  }
  return { value, problems, lineOf: (path) => lineOfPath(doc, path, lineAt), topLines: () => topLines(doc, lineAt) };
}

// One walk over the top-level mapping (cheaper than a lineOf() call per key).
function topLines(doc: Document, lineAt: (offset: number) => number): Map<string, number> {
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
  return `broken YAML: ${message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}`;
}

function lineOfPath(doc: Document, path: readonly (string | number)[], lineAt: (offset: number) => number): number | undefined {
  let node: unknown = doc.contents;
  let line: number | undefined;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
      const key = pair?.key as { range?: [number, number, number] } | undefined;
      if (!pair || !key?.range) break;
      line = lineAt(key.range[0]);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as { range?: [number, number, number] } | undefined;
      if (!item?.range) break;
      line = lineAt(item.range[0]);
      node = item;
    } else {
      break;
    }
  }
  return line;
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

export function parseEntry(format: EntryFormat, source: string): ParsedEntry {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (format === 'markdown') return parseMarkdown(text);
  if (format === 'json') {
    try {
      JSON.parse(text);
    } catch (err) {
      return broken([{ line: jsonErrorLine(text, (err as Error).message), message: `broken JSON: ${(err as Error).message}` }]);
    }
  }
  // JSON is YAML 1.2, so the YAML parser also gives the key lines of a JSON entry.
  return fromYaml(text.trim() === '' ? EMPTY_YAML : parseYaml(text), 1, text);
}

function broken(problems: ParseProblem[]): ParsedEntry {
  return { data: undefined, problems, lines: new Map() };
}

function jsonErrorLine(text: string, message: string): number | undefined {
  const m = /position (\d+)/.exec(message);
  return m ? text.slice(0, Number(m[1])).split('\n').length : undefined;
}

/** `yaml`: the text `parsed` came from (its line 1 is line 1 of the file). */
function fromYaml(parsed: ParsedYaml, firstLine: number, yaml: string, body?: { text: string; line: number }): ParsedEntry {
  if (parsed.problems.length > 0) return broken([...parsed.problems]);
  const value = parsed.value ?? {};
  if (!isPlainObject(value)) {
    return broken([{ line: firstLine, message: `expected a mapping of field names to values, got ${describe(value)}` }]);
  }
  return withLazyLines({ data: value, body: body?.text, bodyLine: body?.line, problems: [], yaml });
}

/**
 * A parsed entry as plain data, for a worker thread to post back: everything but the line map,
 * which is made again from `yaml` (the front matter or YAML text) when a message needs it.
 */
export interface PortableEntry extends Omit<ParsedEntry, 'lines'> {
  readonly yaml: string;
}

const yamlOf = new WeakMap<ParsedEntry, string>();

export function toPortable(parsed: ParsedEntry): PortableEntry {
  const { data, body, bodyLine, problems } = parsed;
  return { data, body, bodyLine, problems, yaml: yamlOf.get(parsed) ?? '' };
}

export function fromPortable(portable: PortableEntry): ParsedEntry {
  return portable.data === undefined ? broken([...portable.problems]) : withLazyLines(portable);
}

function withLazyLines({ yaml, ...parts }: PortableEntry): ParsedEntry {
  // Lines are needed only for messages, which are rare: parsing again then costs less than a
  // map per file for as long as the file's parse result is kept (the whole tree under --watch).
  let lines: Map<string, number> | undefined;
  const entry: ParsedEntry = {
    ...parts,
    get lines() {
      return (lines ??= yaml.trim() === '' ? new Map<string, number>() : parseYaml(yaml).topLines());
    },
  };
  yamlOf.set(entry, yaml);
  return entry;
}

const EMPTY_YAML: ParsedYaml = { value: {}, problems: [], lineOf: () => undefined, topLines: () => new Map() };

function parseMarkdown(text: string): ParsedEntry {
  // gray-matter treats a missing closing delimiter as "everything is front matter"; say so instead.
  if (/^---(?!-)/.test(text) && text.indexOf('\n---', 3) === -1) {
    return broken([{ line: 1, message: "front matter is not closed: add a line '---' after it" }]);
  }
  let front: ParsedYaml = EMPTY_YAML;
  let frontText = '';
  const yamlEngine = (matterText: string) => {
    // gray-matter hands over the text right after the opening '---' (the rest of line 1 included),
    // so line N of `matterText` is line N of the file.
    // With CRLF line ends the last line keeps its '\r' (gray-matter splits at '\n---').
    frontText = matterText.replace(/\r$/, '');
    front = parseYaml(frontText, 1);
    return {};
  };
  const unsupported = (language: string) => () => {
    throw new Error(`front matter language '${language}' is not supported; use YAML`);
  };
  let file: { content: string };
  try {
    // Passing options also keeps gray-matter from caching results by input text.
    file = matter(text, {
      engines: {
        yaml: yamlEngine,
        json: yamlEngine,
        javascript: unsupported('javascript'),
        coffee: unsupported('coffee'),
      },
    } as unknown as Parameters<typeof matter>[1]);
  } catch (err) {
    const message = (err as Error).message.replace(/^gray-matter engine "(.*)" is not registered$/, "front matter language '$1' is not supported; use YAML");
    return broken([{ line: 1, message }]);
  }
  const content = file.content;
  const bodyLine = text.endsWith(content) ? text.slice(0, text.length - content.length).split('\n').length : undefined;
  return fromYaml(front, 2, frontText, { text: content, line: bodyLine ?? 1 });
}
