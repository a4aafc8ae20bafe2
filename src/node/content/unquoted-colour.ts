// An unquoted colour: in YAML `#` after a space starts a comment, so `accent: #ff8800` is the key
// `accent` with no value, `accent:` with `#ff8800` on the next line the same, and
// `colors: [#fff, #000]` a list that never closes (the comment takes the `]` with it). Each is
// found from the text, so that the message says to quote the value rather than "required field is
// empty" or the YAML parser's own words; so is a text a glued `#` cuts short (`title: Episode #3`).
import { COLOR } from './values.js';
import type { ParseProblem } from './parse.js';
import { yamlPackage } from './yaml-package.js';

/** A hex colour and where it ends, unanchored (COLOR is the whole value). */
const HEX = `${COLOR.source.slice(1, -1)}(?=[\\s,\\]}]|$)`;

/**
 * Top-level keys whose value is null because a comment stands where the value would: `key: #…`
 * (any comment), or `key:` and then an indented `#ff8800` (a colour: an indented comment of words
 * is a comment) → the comment. Only for data that has a null value at all.
 */
export function commentedKeys(source: string, data: Record<string, unknown>): Map<string, string> | undefined {
  const found = cutValues(source, data);
  if (!Object.values(data).includes(null)) return found.size > 0 ? found : undefined;
  const key = `^(["']?)([^\\s#"'][^\\n]*?)\\1[ \\t]*:`;
  const sameLine = new RegExp(`${key}[ \\t]+(#[^\\n]*?)[ \\t\\r]*$`, 'gm');
  const nextLine = new RegExp(`${key}[ \\t\\r]*\\n[ \\t]+(${HEX}[^\\n]*?)[ \\t\\r]*$`, 'gm');
  for (const m of [...source.matchAll(sameLine), ...source.matchAll(nextLine)]) {
    const [, , name = '', comment = ''] = m;
    if (Object.hasOwn(data, name) && data[name] === null) found.set(name, comment);
  }
  return found.size > 0 ? found : undefined;
}

/**
 * Top-level keys whose plain text value a comment cut short: `title: Episode #3 of the saga` is
 * `Episode` (found from outside). Only a `#` glued to what follows (`# note` reads as a comment
 * meant), on lines of at most 2,000 characters (a bound on the scan).
 */
function cutValues(source: string, data: Record<string, unknown>): Map<string, string> {
  const found = new Map<string, string>();
  if (!/[ \t]#[^\s#]/.test(source)) return found;
  for (const line of source.split('\n')) {
    if (line.length > 2000 || !line.includes('#')) continue;
    const m = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]+([^\s"'#[{|>&*!].*?)[ \t]+(#[^\s#].*?)\r?$/.exec(line);
    if (m && data[m[1] as string] === m[2]) found.set(m[1] as string, m[3] as string);
  }
  return found;
}

/** What `key: value #comment` meant: the whole line as text. */
export function cutValueHint(key: string, value: string, comment: string): string {
  return `'${comment}' after '${key}: ${value}' is a YAML comment, so the value is '${value}'; quote the value (${key}: ${JSON.stringify(`${value} ${comment}`)}) or put a space after '#' if it is a comment`;
}

/** Why `key` has no value and what to write: `'#ff8800' after 'accent:' is a YAML comment; quote the value (…)`. */
export function commentedValueHint(key: string, comment: string): string {
  // `#ff8800 # brand`: the value meant runs up to a comment of its own, if any (`#3 things to know`:
  // all of it, found from outside: the first word alone made a hint that was itself broken YAML).
  const cut = comment.search(/\s#/);
  const value = (cut < 0 ? comment : comment.slice(0, cut)).trim();
  const rest = cut < 0 ? '' : comment.slice(cut).trim();
  const quoted = `${key}: ${JSON.stringify(value)}${rest === '' ? '' : `  ${rest}`}`;
  return `'${comment}' after '${key}:' is a YAML comment; quote the value (${quoted}) or remove the comment`;
}

// Lexer tokens that stand for no text of the source: document start, end of a flow collection, scalar.
const MARKERS = new Set(['\x02', '\x18', '\x1f']);

/**
 * For YAML the parser refused: a colour inside `[ ]` or `{ }` that the lexer took for a comment,
 * one problem per line, with the line as it should be. Empty when there is none.
 */
export function flowColourProblems(text: string, lineAt: (offset: number) => number): ParseProblem[] {
  const problems: ParseProblem[] = [];
  const colour = new RegExp(`^${HEX}`);
  const open: string[] = [];
  let offset = 0;
  for (const token of new (yamlPackage().Lexer)().lex(text)) {
    if (token === '[' || token === '{') open.push(token);
    else if (token === ']' || token === '}') open.pop();
    else if (token === '\x18') open.length = 0;
    else if (open.length > 0 && colour.test(token)) {
      const line = lineAt(offset);
      const where = open.at(-1) === '[' ? 'in a list [ ]' : 'in a mapping { }';
      const word = (colour.exec(token) as RegExpExecArray)[0];
      const message = `broken YAML: '${word}' ${where} starts a YAML comment, which takes the rest of the line; quote the value (${quotedLine(text, offset, word)})`;
      if (problems.at(-1)?.line !== line) problems.push({ line, message });
    }
    if (!MARKERS.has(token)) offset += token.length;
  }
  return problems;
}

/** The line at `offset` with every colour that starts a value (after `[`, `{`, `,` or `: `) quoted; just the colour when the line is long. */
function quotedLine(text: string, offset: number, word: string): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  const line = text.slice(start, end < 0 ? undefined : end).trim();
  return line.length > 120 ? JSON.stringify(word) : line.replace(new RegExp(`([[{,]|:\\s)(\\s*)(${HEX})`, 'g'), '$1$2"$3"');
}
