// The YAML parser's errors, said as the author's mistakes: one message per mistake, on the line
// where it was made (the parser often names the line before, or the end of the document), with a
// hint saying what to write (indentation, tabs, an unclosed bracket or quote, `: ` or `#` inside
// a value) and a code frame of the lines around it (code-frame.ts).
import type { YAMLError } from 'yaml';
import { codeFrame } from './code-frame.js';
import type { ParseProblem } from './parse.js';

const MAX_MISTAKES = 20;

interface Mistake {
  /** 0-based line in the YAML text, and column (0-based) for the caret. */
  readonly row: number;
  readonly col: number;
  readonly message: string;
  /** The last row this mistake covers: errors the parser reports up to it follow from it. */
  readonly through?: number;
}

const indentOf = (line: string) => /^ */.exec(line)?.[0].length ?? 0;
const isContent = (line: string) => !/^\s*(#|$)/.test(line);

/** `key: value` with a value on the line (not a block or nested mapping to come). */
const KEY_WITH_VALUE = /^(\s*(?:-\s+)?)(["']?)([^\s#"'][^:#]*?)\2:[ \t]+([^\s#|>].*)$/;

/** Whether a value can start at `i`: after `: `, `- `, `[`, `{`, `,` or at the line's start (spaces skipped). */
function startsValue(line: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && (line[j] === ' ' || line[j] === '\t')) j--;
  return j < 0 || ':-[{,'.includes(line[j] as string);
}

/** Quotes outside of other quotes, brackets outside quotes: what is left open at the line's end. */
function openAtEnd(line: string): { bracket?: { char: string; col: number }; quote?: { char: string; col: number } } {
  const brackets: { char: string; col: number }[] = [];
  let quote: { char: string; col: number } | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote) {
      if (c === quote.char && !(c === '"' && line[i - 1] === '\\')) quote = undefined;
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(line[i - 1] as string))) break; // a comment
    // A quote opens a scalar only where a value starts (after `: `, `- `, `[`, `{`, `,` or at the start).
    if ((c === '"' || c === "'") && startsValue(line, i)) quote = { char: c, col: i };
    else if (c === '[' || c === '{') brackets.push({ char: c, col: i });
    else if (c === ']' || c === '}') brackets.pop();
  }
  return { ...(brackets.length > 0 ? { bracket: brackets[0] } : {}), ...(quote ? { quote } : {}) };
}

/** The nearest content line above `row`, or -1. */
function previousContent(lines: readonly string[], row: number): number {
  for (let r = row - 1; r >= 0; r--) if (isContent(lines[r] as string)) return r;
  return -1;
}

/** The quote still open at the end of line `row`, read from the top (a quoted value may span lines). */
function openQuote(lines: readonly string[], row: number): { row: number; col: number; char: string } | undefined {
  let open: { row: number; col: number; char: string } | undefined;
  for (let r = 0; r <= row && r < lines.length; r++) {
    const line = lines[r] as string;
    let from = 0;
    if (open) {
      const close = line.indexOf(open.char);
      if (close < 0) continue;
      open = undefined;
      from = close + 1;
    }
    const rest = openAtEnd(' '.repeat(from) + line.slice(from)).quote;
    if (rest) open = { row: r, col: rest.col, char: rest.char };
  }
  return open;
}

/** A bracket or quote left open on the line the error is on or above it (the parser names its end). */
function unclosed(lines: readonly string[], row: number): Mistake | undefined {
  const quote = openQuote(lines, row);
  if (quote) {
    const q = quote.char;
    return { row: quote.row, col: quote.col, message: `the ${q} opened here is never closed: add ${q} at the end of the value` };
  }
  for (let r = Math.min(row, lines.length - 1); r >= 0 && r >= row - 50; r--) {
    const open = openAtEnd(lines[r] as string);
    if (open.bracket) {
      const close = open.bracket.char === '[' ? ']' : '}';
      return {
        row: r,
        col: open.bracket.col,
        message: `the '${open.bracket.char}' opened here is not closed: add '${close}' at the end of the line (or quote the value if the '${open.bracket.char}' is text)`,
      };
    }
    // A top-level line above: nothing open reaches further (a comment or blank line is no such line).
    if (r < row && isContent(lines[r] as string) && !/^\s/.test(lines[r] as string)) break;
  }
  return undefined;
}

/** An indentation mistake on `row` or the content line after it, said against the lines above. */
function indentation(lines: readonly string[], row: number, firstLine: number): Mistake | undefined {
  for (let r = row; r <= row + 1 && r < lines.length; r++) {
    const line = lines[r] as string;
    if (!isContent(line)) continue;
    const above = previousContent(lines, r);
    if (above < 0) continue;
    const prev = lines[above] as string;
    const indent = indentOf(line);
    const withValue = KEY_WITH_VALUE.exec(prev);
    if (indent > indentOf(prev) && withValue && !/^\s*-\s/.test(line.slice(indentOf(prev)))) {
      const key = withValue[3] as string;
      return {
        row: r,
        col: indent,
        message: `this line is indented under '${key}:' (line ${above + firstLine}), which already has a value: start it in the column of '${key}' to make it a key of its own, or leave nothing after '${key}:' to nest it`,
      };
    }
    // A list pasted under a key that has a value (found from outside: token lines added under
    // 'public: false' got the parser's 'Nested mappings are not allowed in compact mappings').
    if (indent > indentOf(prev) && withValue && !withValue[1]?.includes('-') && /^-(\s|$)/.test(line.slice(indent))) {
      const key = withValue[3] as string;
      let through = r;
      while (
        through + 1 < lines.length &&
        (!isContent(lines[through + 1] as string) || indentOf(lines[through + 1] as string) > indentOf(prev))
      )
        through++;
      return {
        row: r,
        col: indent,
        through,
        message: `this list item is indented under '${key}:' (line ${above + firstLine}), which already has a value: put a key of its own above the items, in the column of '${key}' and with nothing after its ':' (like 'tags:'), or leave nothing after '${key}:' to make the list its value`,
      };
    }
    // Less indented than the line above, but not as far back as any line it could belong to.
    if (indent < indentOf(prev)) {
      const levels = new Set<number>();
      for (let a = above; a >= 0; a--) {
        const l = lines[a] as string;
        if (!isContent(l)) continue;
        levels.add(indentOf(l));
        if (indentOf(l) === 0) break;
      }
      if (!levels.has(indent)) {
        const fits = [...levels].filter((n) => n < indentOf(prev)).sort((a, b) => b - a);
        return {
          row: r,
          col: indent,
          message: `this line is indented ${indent} space${indent === 1 ? '' : 's'}, which lines up with no line above it (those are at ${[...levels].sort((a, b) => a - b).join(', ')}): indent it like the lines it belongs with${fits.length > 0 ? ` (${indentOf(prev)} to continue the list or mapping above, ${fits[0]} for the level before)` : ''}`,
        };
      }
    }
  }
  return undefined;
}

/** A value's text without the comment after it, cut with one search (/\s+#.*$/ is quadratic in a run of blanks without a '#'). */
function withoutComment(text: string): string {
  const hash = text.search(/\s#/);
  return (hash < 0 ? text : text.slice(0, hash)).trimEnd();
}

/** A plain value holding `: `, which YAML reads as a mapping: quote it. */
function colonInValue(lines: readonly string[], row: number): Mistake | undefined {
  const m = KEY_WITH_VALUE.exec(lines[row] ?? '');
  if (!m) return undefined;
  const value = withoutComment(m[4] as string);
  const at = value.search(/:(\s|$)/);
  if (at < 0 || /^["'[{]/.test(value)) return undefined;
  const col = (lines[row] as string).indexOf(value) + at;
  return {
    row,
    col,
    // The line as it should be, unless it is too long to read in a message.
    message: `': ' inside the value of '${m[3]}' would start a mapping: quote the value${value.length > 120 ? '' : ` (${(m[1] as string).trimStart()}${m[3]}: ${JSON.stringify(value)})`}`,
  };
}

/** A line of a mapping without `key: `: `title Hello`, or `title:Hello` (no space after the colon). */
function missingColon(lines: readonly string[], row: number): Mistake | undefined {
  for (let r = row; r <= row + 1 && r < lines.length; r++) {
    const line = lines[r] as string;
    if (!isContent(line) || /^\s*-(\s|$)/.test(line) || /:(\s|$)/.test(line)) continue;
    const glued = /^(\s*)([^\s:#"']+):([^\s/].*)$/.exec(line);
    if (glued) {
      return {
        row: r,
        col: indentOf(line) + (glued[2] as string).length + 1,
        message: `no space after ':' in '${glued[2] as string}:${glued[3]}': YAML needs one between a key and its value (${glued[2]}: ${glued[3]})`,
      };
    }
    // [\s\S]*, not .*: a line separator (U+2028, a lone \r) stops '.', and then the blanks before it were tried one by one.
    const m = /^(\s*)(\S+)\s+([\s\S]*)$/.exec(line);
    const key = m?.[2] ?? line.trim();
    const fix = m ? `${key}: ${m[3]}` : `${line.trim()}:`;
    return { row: r, col: indentOf(line), message: `no ':' after '${key}': a line of a mapping is 'key: value' (${fix})` };
  }
  return undefined;
}

/** A space YAML does not take for one: no-break and typographic spaces, as word processors paste them. */
const ODD_SPACE = /[\u00a0\u2000-\u200a\u202f\u205f\u3000]/;
const AFTER_KEY = new RegExp(`^(\\s*)([^\\s:#"']+):(${ODD_SPACE.source})\\s*(.*)$`);

/** `\u00a0`: a character named as `cqa check` shows it. */
const codePoint = (c: string) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;

/** `key:`, the odd space after it and the rest of the line (`title:\u00a0Hello`), at the start of a text. */
export const ODD_SPACE_AFTER_KEY = new RegExp(`^([A-Za-z_][\\w-]*):(${ODD_SPACE.source})\\s*(.*)$`);

/** What to say of `key:` followed by the odd space `space` (then `rest`): type a plain space. */
export const oddSpaceAdvice = (key: string, space: string, rest: string, what = 'a no-break space, as word processors paste it') =>
  `the space after '${key}:' is ${codePoint(space)} (${what}), which YAML does not read as a space: type a plain space (${key}: ${rest})`;

/** `key:` followed by a no-break space (pasted from a word processor): to YAML, no space at all. */
function oddSpaceAfterColon(lines: readonly string[], row: number): Mistake | undefined {
  for (let r = row; r <= row + 1 && r < lines.length; r++) {
    const line = lines[r] as string;
    const m = AFTER_KEY.exec(line);
    if (!m) continue;
    return {
      row: r,
      col: indentOf(line) + (m[2] as string).length + 1,
      message: oddSpaceAdvice(m[2] as string, m[3] as string, m[4] as string),
    };
  }
  return undefined;
}

/** A value starting with a character YAML reserves (`@`, a backtick): quote it. */
function reservedStart(lines: readonly string[], row: number, col: number): Mistake {
  const line = lines[row] ?? '';
  const m = KEY_WITH_VALUE.exec(line);
  const fix = m ? ` (${(m[1] as string).trimStart()}${m[3]}: ${JSON.stringify((m[4] as string).trimEnd())})` : '';
  return { row, col, message: `a value cannot start with '${line[col] ?? ''}' unquoted: quote the value${fix}` };
}

/** A value that goes on after its closing quote: `'it's here'`, `"a"b`. */
function afterQuote(lines: readonly string[], row: number): Mistake | undefined {
  const line = lines[row] ?? '';
  const m = /^(\s*(?:-\s+)?[^\s:#"'][^:#]*?:\s+)(["'])/.exec(line);
  if (!m) return undefined;
  const q = m[2] as string;
  const start = (m[1] as string).length;
  let close = start + 1;
  while (close < line.length && !(line[close] === q && !(q === '"' && line[close - 1] === '\\'))) close++;
  const rest = line.slice(close + 1);
  if (close >= line.length || /^\s*(#.*)?$/.test(rest)) return undefined;
  const key = (m[1] as string).replace(/:\s+$/, '').trimStart();
  if (q === "'" && /^\w/.test(rest)) {
    const text = line.slice(start + 1).replace(/'\s*$/, '');
    return {
      row,
      col: close,
      message: `a ' inside a '…' value ends it: write it twice (${key}: '${text.replace(/'/g, "''")}') or use double quotes (${key}: ${JSON.stringify(text)})`,
    };
  }
  const value = line.slice(start).trimEnd();
  // `"He said "hi" to me"`: the outer quotes were meant to enclose it, the inner ones are text.
  // '…' holds no escapes: doubling its quotes keeps it exact. "…" keeps its escapes (`\t`): only
  // its bare inner quotes get a backslash, unless plain '…' says the same.
  if (value.length > 2 && value.endsWith(q)) {
    const text = value.slice(1, -1);
    const how =
      q === "'"
        ? `write each inner ' twice (${key}: '${text.replace(/'/g, "''")}')`
        : /[\\']/.test(text)
          ? `put a backslash before each inner " (${key}: "${escapeBareQuotes(text)}")`
          : `enclose the value in single quotes (${key}: '${text}')`;
    return { row, col: close, message: `a ${q} inside a ${q}…${q} value ends it: ${how}` };
  }
  return {
    row,
    col: close + 1,
    message: `text after the closing ${q} of the value of '${key}': put all of the value inside the quotes (${key}: ${JSON.stringify(value)})`,
  };
}

/** `"` not already escaped (after an even run of backslashes) gets a backslash. */
function escapeBareQuotes(text: string): string {
  return text.replace(/(\\*)"/g, (all, slashes: string) => (slashes.length % 2 === 0 ? `${slashes}\\"` : all));
}

/** `key: value`, the value whatever it starts with. */
const KEY_AND_VALUE = /^(\s*(?:-\s+)?)(["']?)([^\s#"'][^:#]*?)\2:[ \t]+(\S.*)$/;

/** What a character YAML reads as syntax does at the start of a value, for indicatorStart(). */
const INDICATORS: Readonly<Record<string, string>> = {
  '-': "'- ' starts a list item, which cannot follow a key on its line",
  '*': "a value that starts with '*' is read as a YAML alias (a reference to a value named with &)",
  '&': "a value that starts with '&' is read as a YAML anchor (a name for the value after it)",
  '|': "'|' starts a block of text on the lines below (on its own line only '-', '+' or an indentation digit may follow it)",
  '>': "'>' starts a folded block of text on the lines below (on its own line only '-', '+' or an indentation digit may follow it)",
  '?': "'? ' starts a complex key",
  '[': "a value that starts with '[' is a list, which ends at its ']'",
  '{': "a value that starts with '{' is a mapping, which ends at its '}'",
};

/**
 * A value that starts with a character YAML reads as syntax (`title: - dash`, `* star`,
 * `>folded?`, `[draft] notes`): the parser's words name its tokens; say what the author wrote.
 */
function indicatorStart(lines: readonly string[], row: number): Mistake | undefined {
  const line = lines[row] ?? '';
  const m = KEY_AND_VALUE.exec(line);
  // A comment after the value is not part of it (commentNote() says so on its own).
  const value = withoutComment(m?.[4] ?? '');
  const said = INDICATORS[value[0] ?? ''];
  const alone = (c: string) => value === c || value.startsWith(`${c} `) || value.startsWith(`${c}\t`);
  if (!m || !said || (value[0] === '-' && !alone('-')) || (value[0] === '?' && !alone('?'))) return undefined;
  const key = m[3] as string;
  const block = value[0] === '|' || value[0] === '>';
  return {
    row,
    col: line.length - (m[4] as string).length,
    message: `${said}: quote the value to keep it as text (${(m[1] as string).trimStart()}${key}: ${JSON.stringify(value)})${
      value[0] === '-'
        ? `, or put the list's items on the lines below '${key}:'`
        : block
          ? `, or put the text on the lines below, indented`
          : ''
    }`,
  };
}

/** A list item and a key at one indentation (`- a` then `b: 1`): a list and a mapping do not mix. */
function listAndMapping(lines: readonly string[], row: number, firstLine: number): Mistake | undefined {
  const line = lines[row] ?? '';
  const above = previousContent(lines, row);
  if (above < 0 || indentOf(lines[above] as string) !== indentOf(line)) return undefined;
  const isItem = (l: string) => /^\s*-(\s|$)/.test(l);
  if (isItem(line) === isItem(lines[above] as string)) return undefined;
  const [item, key] = isItem(line) ? [row, above] : [above, row];
  return {
    row,
    col: indentOf(line),
    message: `a list item (line ${item + firstLine}) and a key (line ${key + firstLine}) at the same indentation: a list and a mapping cannot mix; indent the list under a key, or make every line a key`,
  };
}

/** A '---' line after the first document: front matter in a YAML file, or a second document. */
function secondDocument(lines: readonly string[], row: number, firstLine: number): Mistake {
  const first = lines.findIndex(isContent);
  if (first >= 0 && first < row && /^---(\s|$)/.test(lines[first] as string)) {
    return {
      row,
      col: 0,
      message: `front matter ('---' lines around the fields, line ${first + firstLine} and this one) is for .md and .markdown files; a YAML file is the fields alone: remove the '---' lines (or rename the file to .md if a Markdown body follows)`,
    };
  }
  return {
    row,
    col: 0,
    message:
      "'---' starts a second YAML document, and a file holds one: remove the line (and move what follows to a file of its own if it is another entry)",
  };
}

/**
 * A tab before a line: under a key that holds nothing yet (`meta:`) it was meant as the key's
 * indent; after a key with a value (`title: A`) spaces would nest it there, another error.
 */
function tabIndent(lines: readonly string[], row: number): string {
  const above = previousContent(lines, row);
  const opens = above >= 0 && /:\s*(#.*)?$/.test(lines[above] as string);
  return opens
    ? 'a tab indents this line; YAML indents with spaces only: replace the tab with spaces'
    : 'a tab indents this line; YAML indents with spaces only: remove it (the line above holds its own value, so this one starts at its level)';
}

/** Why the parser stopped at `error`, as the mistake the author made. */
function mistakeOf(lines: readonly string[], error: YAMLError, rowCol: (offset: number) => [number, number], firstLine: number): Mistake {
  const [row, col] = rowCol(error.pos[0]);
  if (error.code === 'TAB_AS_INDENT') return { row, col, message: tabIndent(lines, row) };
  if (error.code === 'BAD_SCALAR_START') return reservedStart(lines, row, col);
  if (error.code === 'MULTIPLE_DOCS') return secondDocument(lines, row, firstLine);
  if (error.code === 'TAG_RESOLVE_FAILED') {
    const tag = /^!\S*/.exec((lines[row] ?? '').slice(col))?.[0] ?? '!';
    return {
      row,
      col,
      message: `a value that starts with '!' is read as a YAML tag, and '${tag}' is none: quote the value to keep it as written`,
    };
  }
  const closer = /flow-(seq|map)-end/.exec(error.message);
  if (closer && !unclosed(lines, row)) {
    const c = closer[1] === 'seq' ? ']' : '}';
    return { row, col, message: `a '${c}' with no '${c === ']' ? '[' : '{'}' open before it: remove it` };
  }
  if (/quote|flow|\]|\}/i.test(error.message)) {
    const open = unclosed(lines, row);
    if (open) return open;
  }
  const found =
    oddSpaceAfterColon(lines, row) ??
    afterQuote(lines, row) ??
    indicatorStart(lines, row) ??
    colonInValue(lines, row) ??
    indentation(lines, row, firstLine) ??
    missingColon(lines, row) ??
    listAndMapping(lines, row, firstLine) ??
    unclosed(lines, row);
  if (found) return found;
  return { row, col, message: error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'not valid YAML' };
}

/** An unquoted ` #` on the line: the rest is a comment, which may be what broke it. */
function commentNote(line: string): string {
  const open = /(^|\s)#/.exec(line.replace(/"[^"]*"|'[^']*'/g, (s) => ' '.repeat(s.length)));
  return open && open.index > 0 && !/^\s*#/.test(line)
    ? "; note that ' #' starts a comment, which cuts the line there: quote the value if the '#' belongs to it"
    : '';
}

/**
 * One problem per mistake the parser's `errors` come from (several errors often come from one
 * mistake), on its line, each with a hint and a code frame. `firstLine` is the file line of the
 * text's first line; `shownFirstLine`, that line as the file has it, when the text starts inside
 * it (front matter starts after the '---' of line 1).
 */
export function yamlMistakes(
  text: string,
  errors: readonly YAMLError[],
  rowCol: (offset: number) => [number, number],
  firstLine: number,
  shownFirstLine?: string,
): ParseProblem[] {
  // Without their '\r': the hints read lines with `$` (`title: T\r` is a key with a value too).
  const lines = text.split(/\r?\n/);
  // Front matter starts after the opening '---' on line 1: the frame shows that line as it is.
  const shown = shownFirstLine === undefined ? lines : [shownFirstLine, ...lines.slice(1)];
  const shift = shownFirstLine === undefined ? 0 : shownFirstLine.length - (lines[0] as string).length;
  const seen = new Set<number>();
  const out: ParseProblem[] = [];
  // The first mistakes are the ones to fix (later errors often follow from them); a file with
  // thousands of errors costs no more than this many.
  let covered = -1;
  for (const error of [...errors].sort((a, b) => a.pos[0] - b.pos[0]).slice(0, MAX_MISTAKES)) {
    if (rowCol(error.pos[0])[0] <= covered) continue;
    const m = mistakeOf(lines, error, rowCol, firstLine);
    if (seen.has(m.row)) continue;
    seen.add(m.row);
    if (m.through !== undefined) covered = m.through;
    out.push({
      line: m.row + firstLine,
      message: `broken YAML: ${m.message}${commentNote(lines[m.row] ?? '')}`,
      frame: codeFrame(shown, m.row, m.row === 0 ? m.col + shift : m.col, firstLine),
    });
  }
  return out;
}
