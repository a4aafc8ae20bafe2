// Collecting problems found in the content tree. Loading never stops at the first problem: every
// error and warning is gathered, each naming the file (relative to the content root), the line
// where known and the field, so an author can fix them all in one pass.
import type { ContentIssue } from '../../core/model/model.js';
import { printable, printableLines } from '../printable.js';
import { groupDigits } from './limits.js';
import { closestName } from '../../core/suggest.js';

export interface IssueAt {
  readonly line?: number | undefined;
  readonly field?: string | undefined;
  readonly frame?: string | undefined;
}

export class IssueList {
  readonly errors: ContentIssue[] = [];
  readonly warnings: ContentIssue[] = [];

  error(file: string, message: string, at: IssueAt = {}): void {
    this.errors.push(issue(file, message, at));
  }

  warn(file: string, message: string, at: IssueAt = {}): void {
    this.warnings.push(issue(file, message, at));
  }
}

/** Characters of a message: one quoting a megabyte line would fill the terminal, /healthz and the memory. */
const MESSAGE_CHARS = 1000;

function issue(file: string, text: string, at: IssueAt): ContentIssue {
  const message = text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS)}… (cut: ${groupDigits(text.length)} characters)` : text;
  const out: { file: string; line?: number; field?: string; message: string; frame?: string } = { file, message };
  if (at.line !== undefined) out.line = at.line;
  if (at.field !== undefined) out.field = at.field;
  if (at.frame !== undefined) out.frame = at.frame;
  return out;
}

/** Orders issues by file (code point), then line, so output is stable however files were read. */
export function sortIssues(issues: readonly ContentIssue[]): ContentIssue[] {
  return [...issues].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || (a.line ?? 0) - (b.line ?? 0));
}

/**
 * `file:line: field: message`, leaving out the parts that are not known; then the code frame, if
 * any. Fit for a terminal: file names, keys and values come from the content, so their control
 * characters are shown escaped (printable.ts), never sent as they are.
 */
export function formatIssue(issue: ContentIssue): string {
  let where = issue.file;
  if (issue.line !== undefined) where += `:${issue.line}`;
  const text = printable(issue.field !== undefined ? `${where}: ${issue.field}: ${issue.message}` : `${where}: ${issue.message}`);
  return issue.frame === undefined ? text : `${text}\n${printableLines(issue.frame)}`;
}

/** How many warnings of one kind `cqa build` and `cqa serve` print before counting the rest. */
export const WARNINGS_PER_KIND = 10;

/**
 * Warnings as lines to print (formatIssue), at most `perKind` of each kind — the message without
 * what it quotes and its numbers — then one line counting the rest of that kind: 49,000 alike
 * took seconds to print and buried the one that differs (found from outside). `cqa check` prints all.
 */
export function warningLines(warnings: readonly ContentIssue[], perKind = WARNINGS_PER_KIND): string[] {
  const lines: string[] = [];
  const kinds = new Map<string, { first: ContentIssue; count: number }>();
  for (const w of warnings) {
    const kind = `${w.field ?? ''}\0${w.message.replace(/'[^']*'|"[^"]*"|`[^`]*`|\d+/g, '')}`;
    const seen = kinds.get(kind) ?? { first: w, count: 0 };
    kinds.set(kind, seen);
    if (++seen.count <= perKind) lines.push(formatIssue(w));
  }
  for (const { first, count } of kinds.values())
    if (count > perKind) {
      const like = printable(first.field !== undefined ? `${first.field}: ${first.message}` : first.message);
      lines.push(
        `… and ${groupDigits(count - perKind)} more like ${like.length > 100 ? `${like.slice(0, 100)}…` : like} (cqa check lists them all)`,
      );
    }
  return lines;
}

/** Thrown by buildSnapshot when the content has errors; `issues` lists every one of them. */
export class ContentError extends Error {
  readonly issues: readonly ContentIssue[];

  constructor(issues: readonly ContentIssue[]) {
    const files = new Set(issues.map((i) => i.file)).size;
    const head = `${issues.length} content error${issues.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}:`;
    super([head, ...sortIssues(issues).map((i) => `  ${formatIssue(i)}`)].join('\n'));
    this.name = 'ContentError';
    this.issues = issues;
  }
}

/**
 * Names for a message: the first few, then how many more. A message per unknown key that listed
 * a schema's 8,000 fields in full came to 440 MB for one such entry.
 */
export function listNames(names: Iterable<string>, count: number, max = 20): string {
  const shown: string[] = [];
  for (const name of names) {
    if (shown.length === max) break;
    shown.push(name);
  }
  return count > shown.length ? `${shown.join(', ')} and ${groupDigits(count - shown.length)} more` : shown.join(', ');
}

/** `unknown key 'locale'; did you mean 'locales'? (project.yaml keys are …)`, the did-you-mean when one is close. */
export function unknownKey(key: string, keys: readonly string[], what: string): string {
  return unknownName(`key '${key}'`, key, keys, `${what} keys are ${keys.join(', ')}`);
}

/**
 * `unknown <what>; did you mean 'x'? (<list>)` when `typed` is spelt almost as one of `names` (`colection:`, `type: relaton`),
 * or `meant` is given (`type: string`), else `unknown <what>; <list>`.
 */
export function unknownName(what: string, typed: unknown, names: readonly string[], list: string, meant?: string): string {
  const near = meant ?? (typeof typed === 'string' ? closestName(typed, names) : undefined);
  return near === undefined ? `unknown ${what}; ${list}` : `unknown ${what}; did you mean '${near}'? (${list})`;
}

const YAML11_BOOLEANS = /^(?:yes|no|on|off|y|n)$/i;

/**
 * Why `yes` (and no, on, off) is no boolean, for every place that takes true or false (found from
 * outside: 'public: yes' in project.yaml said only 'expected true or false, got "yes"').
 */
export function yaml11Boolean(v: unknown): string {
  return typeof v === 'string' && YAML11_BOOLEANS.test(v) ? ' (YAML 1.2 reads yes/no/on/off as text)' : '';
}

/** How a value reads in a message: strings quoted, lists and mappings named. */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return String(value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
