// richtext fields: Markdown rendered to HTML at build time. Raw HTML in the source is escaped, not
// passed through, so content cannot inject markup or scripts into the sites that show it.
import { createRequire } from 'node:module';
import type { Tokens } from 'marked';
import { decodeAttributeValue } from './html-references.js';
import { groupDigits } from './limits.js';
import { allowedUrl } from './safe-url.js';

type MarkedModule = typeof import('marked');

// marked is loaded by the first Markdown rendered (~15 ms of a cold start): a start whose HTML all
// comes from the parse cache (parse-cache.ts) never loads it. It is an ES module: required when
// first needed where Node can (20.19 and later), else imported by richtextReady(). Not a top-level
// await: that would keep require() of this package from working.
const canRequire = (process.features as { require_module?: boolean }).require_module === true;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

type Parser = { parseInline(tokens: Tokens.Generic[], renderer?: unknown): string; textRenderer: unknown };

/** A title attribute, or nothing: decoded as the browser would, then escaped, so it says what it shows. */
const titleAttribute = (title: string | null | undefined) => (title ? ` title="${escapeHtml(decodeAttributeValue(title))}"` : '');

/** What the tag tokenizer sees of marked's lexer: its raw-block state. */
type TagTokenizer = { lexer: { state: { inRawBlock: boolean } } };

function create({ Marked, Tokenizer }: MarkedModule) {
  return new Marked({
    async: false,
    gfm: true,
    tokenizer: {
      // After an inline <pre>, <code>, <kbd> or <script> marked passes the text that follows, up to
      // the closing tag or the block's end, through unescaped (its raw-block state): with the tag
      // itself escaped below, `<kbd> <img src=x onerror=…>` became a live <img> (found from outside).
      // Here raw HTML is text, so there is no raw block.
      tag(this: TagTokenizer, src: string) {
        const token = Tokenizer.prototype.tag.call(this as unknown as InstanceType<typeof Tokenizer>, src);
        this.lexer.state.inRawBlock = false;
        if (token) token.inRawBlock = false;
        return token;
      },
    },
    renderer: {
      html(token: Tokens.HTML | Tokens.Tag): string {
        return escapeHtml(token.text);
      },
      // Links and images are written here, not by marked: the href is the URL allowedUrl() checked
      // (character references decoded), escaped, so the browser cannot read another one.
      // A target outside the allowlist is dropped and the text stays.
      link(this: { parser: Parser }, token: Tokens.Link): string {
        const text = token.autolink ? escapeHtml(token.text) : this.parser.parseInline(token.tokens);
        const href = allowedUrl(token.href, token.autolink === true);
        if (href === undefined) return text;
        return `<a href="${escapeHtml(href)}"${titleAttribute(token.title)}>${text}</a>`;
      },
      image(this: { parser: Parser }, token: Tokens.Image): string {
        const plain = token.tokens ? this.parser.parseInline(token.tokens, this.parser.textRenderer) : token.text;
        const alt = escapeHtml(decodeAttributeValue(plain));
        const src = allowedUrl(token.href);
        if (src === undefined) return alt;
        return `<img src="${escapeHtml(src)}" alt="${alt}"${titleAttribute(token.title)}>`;
      },
    },
  });
}

let marked: ReturnType<typeof create> | undefined;

/**
 * Thrown by renderRichtext() where marked cannot be required after all: a test runner's module
 * sandbox (Jest's ES modules, vitest's vm pools) has a require() of its own that loads no ES
 * module. The loader then imports marked (richtextReady(true)) and loads again.
 */
export class MarkedNotLoaded extends Error {}

/** Makes renderRichtext() ready: nothing to do where Node can require marked when it is first needed, unless `now`. */
export async function richtextReady(now = !canRequire): Promise<void> {
  if (!marked && now) marked = create(await import('marked'));
}

export function renderRichtext(markdown: string): string {
  if (!marked) {
    let module: MarkedModule;
    try {
      module = createRequire(import.meta.url)('marked') as MarkedModule;
    } catch (err) {
      throw new MarkedNotLoaded(`marked could not be required (${(err as Error).message}): import it with richtextReady(true)`);
    }
    marked = create(module);
  }
  return marked.parse(markdown, { async: false }) as string;
}

/**
 * Emphasis marks (`*`, `_`, `~`) one block may hold (a paragraph, list item or table row: marked
 * pairs them within one block's inline text, with a search that grows with their number squared):
 * 5,000 take up to ~0.4 s (`*a_` repeated), 10,000 up to 1.5 s, 80,000 (160 KB of `*a`) 3 s and more.
 */
export const MAX_EMPHASIS_MARKS = 5_000;

/**
 * Characters of one block (lines without a blank one between them; fenced code aside). Inside a
 * block, marked's time may grow with its size squared: a list item with 20,000 lazy continuation
 * lines took 1.2 s at 40 KB, an e-mail-like word before `@` the same; 32 KB take ~0.8 s at worst.
 * A block is counted in parts at the lines where marked certainly starts a new one (list items,
 * headings, table rows: shapeOf); across them its time grows with their size only
 * (docs/content.md#richtext-bounds).
 */
export const MAX_BLOCK_CHARS = 32 * 1024;

/**
 * How many blocks at the limit the blocks of one file may cost together (each counting its size
 * squared): enough for a 1 MB body of 2 KB paragraphs (found from outside: 950 KB of 1 KB ones
 * were refused at one), not for the hundreds at the limit a 4 MiB file could hold. The worst
 * case, four lazy-list blocks at the limit, takes `cqa check` ~4.5 s (one: ~1.5 s).
 */
export const FILE_BLOCKS = 4;

/**
 * Cells of the tables of one value: marked gives every row as many cells as its header, so a
 * 32 KB table of 4,000 columns and 8,000 empty rows ran it out of memory (found from outside);
 * 100,000 take ~0.2 s and 1 MB of HTML. A file's values may hold FILE_BLOCKS times as many.
 */
export const MAX_TABLE_CELLS = 100_000;

/**
 * Parts (paragraphs, list items, headings, table rows) of one file's richtext: marked's memory
 * grows with them, ~850 bytes each (4 MiB of one-word list items: 6 s and 870 MB, found from
 * outside); 200,000 take ~1.2 s and ~170 MB.
 */
export const MAX_FILE_PARTS = 200_000;

/**
 * What the richtext values of one file may cost together: the sum of their blocks' marks squared
 * (as much as one block at the limit), of their blocks' sizes squared (FILE_BLOCKS at the limit)
 * and their tables' cells.
 */
export class RenderBudget {
  marks = MAX_EMPHASIS_MARKS ** 2;
  blocks = FILE_BLOCKS * MAX_BLOCK_CHARS ** 2;
  cells = FILE_BLOCKS * MAX_TABLE_CELLS;
  parts = MAX_FILE_PARTS;
}

/**
 * Indentation (spaces or tabs) before a list marker: deeper, lists nest so far that marked's time
 * and memory grow with depth times size (4 MB of ever deeper items ran it out of memory).
 */
export const MAX_LIST_INDENT = 64;
const DEEP_LIST_ITEM = new RegExp(`^[ \\t]{${MAX_LIST_INDENT + 1},}(?:[-+*]|\\d{1,9}[.)])(?:[ \\t]|$)`);
// A fence as CommonMark (and marked) reads one: at most 3 spaces in, a backtick fence's info
// without a backtick; it closes with the same character, at least as long, and nothing after.
// A looser test would skip lines marked renders as text (found from outside: '```x`').
const FENCE_OPEN = /^ {0,3}(`{3,}(?!.*`)|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

// A line that starts a list item, and the markers before its text (`- 1. x` nests two items).
const LIST_MARKERS = /^(?:[ \t]*(?:[-+*]|\d{1,9}[.)])(?:[ \t]+|$))+/;
// A table's delimiter row as marked reads one (a pipe or colon in it), inside a quote or list item
// too; its columns are its runs of dashes. Only its characters are tested first: no backtracking.
const DELIMITER_CHARS = /^[ \t|:-]+$/;
const DELIMITER = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const QUOTE_OR_INDENT = /^[ \t>]*/;

/** The columns of a table whose delimiter row `text` may be, or 0. */
function delimiterColumns(text: string): number {
  let columns = 0;
  for (const row of [text.replace(QUOTE_OR_INDENT, ''), text.replace(LIST_MARKERS, '').replace(QUOTE_OR_INDENT, '')])
    if (DELIMITER_CHARS.test(row) && DELIMITER.test(row) && /[|:]/.test(row)) columns = Math.max(columns, row.match(/-+/g)?.length ?? 0);
  return columns;
}

const countMarks = (text: string): number => {
  let marks = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 42 || c === 95 || c === 126) marks++; // * _ ~
  }
  return marks;
};

// Lines that certainly start a block of their own in marked, whatever the block before them: a
// list item with text (`- x`, `1. x`; another number only after a sibling of its list), a heading,
// a table row (at the top level: a list item's content is indented at least two columns).
const ITEM = /^( *)([-+*]|\d{1,9}[.)])[ \t]+\S/;
const FIRST_NUMBER = /^1[.)]$/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const ROW = /^ ?\|/;
// After such a line in a block, a fence is no fence to marked: an HTML block, a link definition.
const HTML_OR_DEFINITION = /^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*[<[]/;

/** Whether the last of a line's list markers (`- - - x` nests three items) stands past MAX_LIST_INDENT. */
const nestedByMarkers = (markers: string | undefined): boolean =>
  markers !== undefined &&
  markers.length - markers.trimStart().length + 2 * ((markers.match(/[-+*]|\d{1,9}[.)]/g)?.length ?? 1) - 1) > MAX_LIST_INDENT;

/** A table row's cells as marked splits them (on pipes not escaped, the outer ones dropped). */
const cellCount = (row: string): number =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/).length;

/** Where a block of marked's starts, as far as the next line's reading depends on it. */
interface UnitStart {
  readonly indent: number;
  /** Where its text starts: a line indented more than 3 past it continues it. */
  readonly content: number;
  /** An ordered item's delimiter (`.` or `)`): a line numbered otherwise than 1 is its sibling only after one. */
  readonly ordered?: string | undefined;
}

/**
 * What makes marked slow, measured in one pass over the lines (fenced code is fast: left out), by
 * unit: the lines of a block (no blank line between them) from one line that certainly starts a
 * block of marked's to the next — a list item, a heading, a table row. Within a unit marked's time
 * may grow with its size squared (a list item's lines are merged one by one); across units, not.
 */
interface Shape {
  /** Emphasis marks (`*` `_` `~`) outside fenced code; the most of one unit, and the sum of every unit's squared. */
  marks: number;
  mostMarks: number;
  markSquares: number;
  /** The largest unit's characters, and the sum of every unit's squared. */
  largest: number;
  squares: number;
  /** The cells marked may make of the tables (each row as many as its header has), counted generously. */
  cells: number;
  /** Units counted (paragraphs, list items, headings, table rows). */
  parts: number;
  /** The line (from 1) of the first list item indented (or nested by markers on its line) deeper than MAX_LIST_INDENT. */
  deepItem: number | undefined;
}

function shapeOf(source: string): Shape {
  const markdown = source.replace(/\r\n?/g, '\n'); // as marked reads line ends
  const shape: Shape = { marks: 0, mostMarks: 0, markSquares: 0, largest: 0, squares: 0, cells: 0, parts: 0, deepItem: undefined };
  // The block being read, and its unit.
  let lines = 0;
  let header = '';
  let rows = false;
  let noFence = false;
  let quoted = false; // a block quote's lines may be lazy: nothing in it is split
  let start: UnitStart = { indent: 0, content: 0 };
  let chars = 0;
  let marks = 0;
  const endUnit = () => {
    shape.largest = Math.max(shape.largest, chars);
    shape.squares += chars * chars;
    shape.mostMarks = Math.max(shape.mostMarks, marks);
    shape.markSquares += marks * marks;
    chars = marks = 0;
    shape.parts++;
  };
  const endBlock = () => {
    if (lines > 0) endUnit();
    lines = 0;
    rows = noFence = quoted = false;
  };
  let fence: string | undefined;
  let columns = 0; // of the table that may be open: its rows end at an empty or spaces-only line
  let line = 0;
  for (let at = 0; at <= markdown.length; line++) {
    const nl = markdown.indexOf('\n', at);
    const end = nl < 0 ? markdown.length : nl;
    const text = markdown.slice(at, end);
    at = end + 1;
    if (fence !== undefined) {
      const close = FENCE_CLOSE.exec(text)?.[1];
      if (close !== undefined && close[0] === fence[0] && close.length >= fence.length) fence = undefined;
      continue;
    }
    const open = noFence ? undefined : FENCE_OPEN.exec(text)?.[1];
    if (open !== undefined) {
      fence = open;
      columns = 0;
      endBlock();
      continue;
    }
    const empty = /^ *$/.test(text);
    const delimiter = empty ? 0 : delimiterColumns(text);
    if (empty) columns = 0;
    else {
      columns = Math.max(columns, delimiter);
      shape.cells += columns + delimiter; // a delimiter row's header, then each row
    }
    if (text.trim() === '') {
      endBlock();
      continue;
    }
    const all = countMarks(text);
    shape.marks += all;
    const markers = LIST_MARKERS.exec(text)?.[0];
    if (shape.deepItem === undefined && (DEEP_LIST_ITEM.test(text) || nestedByMarkers(markers))) shape.deepItem = line + 1;
    const item = ITEM.exec(text);
    let starts = lines === 0;
    quoted ||= /^ {0,3}>/.test(text);
    if (lines === 1 && ROW.test(header) && ROW.test(text) && delimiter === cellCount(header)) starts = rows = true;
    else if (quoted) starts = false;
    else if (rows) starts = rows = ROW.test(text);
    else if (lines > 0 && HEADING.test(text)) starts = true;
    else if (lines > 0 && item && (item[1] as string).length <= start.content + 3) {
      const marker = item[2] as string;
      const ordered = marker.length > 1 ? marker.at(-1) : undefined;
      starts =
        ordered === undefined || FIRST_NUMBER.test(marker) || (start.ordered === ordered && start.indent === (item[1] as string).length);
    }
    if (starts) {
      if (lines > 0) endUnit();
      const indent = text.length - text.trimStart().length;
      start = item
        ? {
            indent: (item[1] as string).length,
            content: (markers as string).length,
            ordered: (item[2] as string).length > 1 ? (item[2] as string).at(-1) : undefined,
          }
        : { indent, content: indent };
    }
    if (lines === 0) header = text;
    noFence ||= HTML_OR_DEFINITION.test(text);
    lines++;
    chars += text.length + 1;
    marks += starts && markers !== undefined ? countMarks(text.slice(markers.length)) : all;
  }
  endBlock();
  return shape;
}

/**
 * `render(markdown)`, or why it cannot be rendered in bounded time, memory and stack: list items
 * indented too deep, too many emphasis marks, a block too large, or blocks nested so deeply
 * (`>>>>…`) that marked's recursion runs out of stack. `budget`: what the file's other values left.
 */
export function renderBounded(
  markdown: string,
  render: (md: string) => string,
  budget?: RenderBudget,
): { html: string } | { problem: string } {
  const { marks, mostMarks, markSquares, largest, squares, cells, parts, deepItem } = shapeOf(markdown);
  if (deepItem !== undefined)
    return {
      problem: `has a list item indented more than ${MAX_LIST_INDENT} columns (its line ${deepItem}): lists nested that deep take marked time and memory that grow with depth times size; flatten them`,
    };
  if (mostMarks > MAX_EMPHASIS_MARKS || markSquares > MAX_EMPHASIS_MARKS ** 2)
    return {
      problem: `holds ${groupDigits(mostMarks > MAX_EMPHASIS_MARKS ? mostMarks : marks)} emphasis marks (* _ ~), more than the ${groupDigits(MAX_EMPHASIS_MARKS)} one block (a paragraph, list item or table row) may hold to be rendered in bounded time, or its blocks together (each counting its marks squared): break it up with blank lines, or escape literal ones (\\*)`,
    };
  if (largest > MAX_BLOCK_CHARS)
    return {
      problem: `has a block of ${groupDigits(largest)} characters without a blank line (a paragraph or list item), more than the ${groupDigits(MAX_BLOCK_CHARS)} a block may hold to be rendered in bounded time: break it up with blank lines`,
    };
  if (cells > MAX_TABLE_CELLS)
    return {
      problem: `has tables of ${groupDigits(cells)} cells (each row gets as many as its header), more than the ${groupDigits(MAX_TABLE_CELLS)} a value may hold to be rendered in bounded time and memory: split the table up, or give it fewer columns`,
    };
  if (budget) {
    if (markSquares > budget.marks)
      return {
        problem: `holds ${groupDigits(marks)} emphasis marks (* _ ~), too many after the file's other richtext values to be rendered in bounded time (a file's values may cost as much as one value of ${groupDigits(MAX_EMPHASIS_MARKS)}): split the file, or escape literal ones (\\*)`,
      };
    if (squares > budget.blocks)
      return {
        problem: `brings the file's blocks (paragraphs, list items) past what one file may hold to be rendered in bounded time (each block counts its size squared; together as much as ${FILE_BLOCKS} blocks of ${groupDigits(MAX_BLOCK_CHARS)} characters: a 1 MB body of 2 KB paragraphs): split the file, or its longest blocks`,
      };
    if (parts > budget.parts)
      return {
        problem: `brings the file's paragraphs, list items, headings and table rows past the ${groupDigits(MAX_FILE_PARTS)} one file may hold to be rendered in bounded memory: split the file`,
      };
    if (cells > budget.cells)
      return {
        problem: `brings the file's tables past the ${groupDigits(FILE_BLOCKS * MAX_TABLE_CELLS)} cells one file may hold to be rendered in bounded time and memory (each row gets as many cells as its header): split the file, or its tables`,
      };
    budget.marks -= markSquares;
    budget.blocks -= squares;
    budget.cells -= cells;
    budget.parts -= parts;
  }
  try {
    return { html: render(markdown) };
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return { problem: 'is nested too deeply to render (quotes or lists inside each other, hundreds of levels): flatten it' };
  }
}
