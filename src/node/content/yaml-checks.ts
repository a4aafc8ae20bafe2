// What parseYaml() checks beyond the `yaml` package, in walks that take time in proportion to the
// document: duplicate keys (the package's own `uniqueKeys` check compares each key with every
// earlier one: 40,000 keys took 9 s, 200,000 did not finish), the number of keys per mapping, the
// nesting depth, and what aliases expand to.
import type { Document } from 'yaml';
import { describe } from './issues.js';
import { groupDigits, LIMITS, TOO_DEEP, TOO_MANY_KEYS } from './limits.js';
import type { ParseProblem } from './parse.js';
import { yamlPackage } from './yaml-package.js';

type Ranged = { range?: [number, number, number] | null };
const startOf = (node: unknown): number => (node as Ranged | null)?.range?.[0] ?? 0;

/**
 * Whether flow collections (`[`, `{`) nest deeper than the limit. The parser takes several µs per
 * level (a 4 MiB file of `[` took seconds) before its composer gives up at about 1,000 levels, so
 * deep nesting is refused first. Only texts with that many brackets at all are lexed.
 */
export function flowTooDeep(text: string, lineAt: (offset: number) => number): ParseProblem | undefined {
  let brackets = 0;
  for (let i = 0; i < text.length && brackets <= LIMITS.depth; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) brackets++;
  }
  if (brackets <= LIMITS.depth) return undefined;
  let depth = 0;
  let offset = 0;
  for (const token of new (yamlPackage().Lexer)().lex(text)) {
    if (token === '[' || token === '{') {
      if (++depth > LIMITS.depth) return { line: lineAt(offset), message: TOO_DEEP };
    } else if (token === ']' || token === '}') {
      depth--;
    }
    offset += token.length;
  }
  return undefined;
}

/**
 * A text with more lines, commas, brackets and list dashes than LIMITS.yamlItems, refused before it is parsed.
 * Only a text longer than the limit can hold that many: others are not scanned.
 */
export function tooManyItems(text: string, firstLine: number): ParseProblem | undefined {
  if (text.length <= LIMITS.yamlItems) return undefined;
  let items = 0;
  let line = firstLine;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A newline, a comma, a bracket, or a block list's '- ' (`- - - x` nests three lists on one line).
    const item =
      c === 0x0a ||
      c === 0x2c ||
      c === 0x5b ||
      c === 0x7b ||
      (c === 0x2d && (text.charCodeAt(i + 1) === 0x20 || text.charCodeAt(i + 1) === 0x0a));
    if (item && ++items > LIMITS.yamlItems)
      return {
        line,
        message: `more than ${groupDigits(LIMITS.yamlItems)} lines, commas, brackets and list dashes of YAML (the limit: past it, parsing takes seconds and hundreds of MB): split the file up, or move long text to a Markdown body`,
      };
    if (c === 0x0a) line++;
  }
  return undefined;
}

export interface StructureCheck {
  readonly problems: ParseProblem[];
  /** Offset of the first alias (`*name`), when there is one: then check the value too. */
  readonly firstAlias: number | undefined;
}

const MERGE_KEY =
  "'<<' is a YAML merge key, which YAML 1.2 (what cqa reads) does not have: the keys would not be merged but served under the key '<<'; write the keys out here (quote it, \"<<\", for a key of that name)";

/** Duplicate keys, too many keys in a mapping, too deep nesting, merge keys; every duplicate is reported. */
export function checkDocument(doc: Document, lineAt: (offset: number) => number): StructureCheck {
  const { isAlias, isMap, isScalar, isSeq } = yamlPackage();
  const problems: ParseProblem[] = [];
  let firstAlias: number | undefined;
  const stack: [node: unknown, depth: number][] = [[doc.contents, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (isAlias(node)) firstAlias = Math.min(firstAlias ?? Infinity, startOf(node));
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > LIMITS.depth) return { problems: [{ line: lineAt(startOf(node)), message: TOO_DEEP }], firstAlias };
    if (isSeq(node)) {
      for (const item of node.items) stack.push([item, depth + 1]);
      continue;
    }
    if (node.items.length > LIMITS.keysPerMapping)
      return { problems: [{ line: lineAt(startOf(node)), message: TOO_MANY_KEYS }], firstAlias };
    // Keys as the plain object will have them: `1` and `"1"` are the same key there.
    const seen = new Map<string, unknown>();
    for (const pair of node.items) {
      // `title: {{ page.title }}` (a template) is a mapping whose key is a mapping: the yaml package
      // would make it the text "{ page.title }" with a warning on stderr (found from outside).
      if (isMap(pair.key) || isSeq(pair.key)) {
        problems.push({
          line: lineAt(startOf(pair.key)),
          message: `a ${isMap(pair.key) ? 'mapping' : 'list'} used as a key ({{ … }} and { … } make mappings, [ … ] lists): quote the value to keep it as text`,
        });
        continue;
      }
      // `<<: *base` merges in YAML 1.1 (Jekyll, Hugo, js-yaml); YAML 1.2 reads a key named '<<',
      // which a json field or a collection without a schema would serve as such (found from outside).
      if (isScalar(pair.key) && pair.key.type === 'PLAIN' && pair.key.value === '<<') {
        problems.push({ line: lineAt(startOf(pair.key)), message: MERGE_KEY });
        continue;
      }
      if (isScalar(pair.key)) {
        const name = pair.key.value === null || pair.key.value === undefined ? '' : String(pair.key.value);
        const first = seen.get(name);
        if (first === undefined) seen.set(name, pair.key);
        else
          problems.push({
            line: lineAt(startOf(pair.key)),
            message: `duplicate key ${describe(name)} (first on line ${lineAt(startOf(first))}): keys must be unique`,
          });
      }
      stack.push([pair.key, depth + 1], [pair.value, depth + 1]);
    }
  }
  return { problems: problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)), firstAlias };
}

/**
 * For a document with aliases: the value they make, walked as the tree it becomes when it is
 * checked and served. An alias inside its own anchor nests forever, and aliases of aliases can
 * multiply the depth and the size of the data well beyond what the text shows.
 */
export function aliasProblem(value: unknown): string | undefined {
  // Without aliases a file holds at most one value per two bytes (`1,`); aliases may expand it a
  // little beyond that, not without bound.
  let budget = LIMITS.fileBytes / 2;
  // Nor its text: an alias of a long string is that string again wherever it is served (999
  // aliases of 4 MB took 4 GB and ended the process, found from outside).
  let characters = LIMITS.fileBytes * 2;
  const tooLong = `aliases expand the data to more than ${groupDigits(LIMITS.fileBytes * 2)} characters of text (twice what a file may hold): use fewer aliases, or write the long values out once`;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v === 'string' && (characters -= v.length) < 0) return tooLong;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > LIMITS.depth)
      return `aliases (*name) nest the data more than ${LIMITS.depth} levels deep (an alias inside its own anchor nests forever): use fewer aliases`;
    if (!Array.isArray(v)) for (const key of Object.keys(v)) if ((characters -= key.length) < 0) return tooLong;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (--budget < 0) return `aliases expand to more than ${groupDigits(LIMITS.fileBytes / 2)} values: use fewer aliases`;
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** What the `yaml` package throws when aliases expand beyond `maxAliasCount`, said as the mistake. */
/** The yaml package's limit (toJS maxAliasCount, parse.ts) passed by plain aliases: said from its first one. */
export const TOO_MANY_ALIAS_USES =
  'more than 1,000 aliases (*name) in one file, from this line on: write the values out, or use fewer aliases';

export const TOO_MANY_ALIASES =
  'aliases (*name) of anchors that hold aliases themselves repeat the data too many times (each level multiplies it): use fewer aliases, or write the data out';

/**
 * For a document with aliases, before its value is made (the `yaml` package says these without a
 * line, in its own words): each alias (`*name`) with no anchor (`&name`) set before it, on its
 * line; and `repeatLine`, the line of the first alias of an anchor that holds aliases itself,
 * where TOO_MANY_ALIASES is said when the value is too large to make.
 */
export function aliasMistakes(doc: Document, lineAt: (offset: number) => number): { problems: ParseProblem[]; repeatLine?: number } {
  const { isAlias, isCollection, visit } = yamlPackage();
  const problems: ParseProblem[] = [];
  const anchors = new Map<string, unknown>();
  const holdsAlias = new Map<unknown, boolean>();
  const hasAlias = (node: unknown): boolean => {
    if (!isCollection(node)) return false;
    let found = holdsAlias.get(node);
    if (found === undefined) {
      let any = false;
      visit(node, {
        Alias: () => {
          any = true;
          return visit.BREAK;
        },
      });
      found = any;
      holdsAlias.set(node, found);
    }
    return found;
  };
  let repeatLine: number | undefined;
  visit(doc, (_, node) => {
    const anchor = (node as { anchor?: string } | null)?.anchor;
    if (anchor !== undefined) anchors.set(anchor, node);
    if (!isAlias(node)) return;
    const target = anchors.get(node.source);
    if (target === undefined) {
      problems.push({
        line: lineAt(startOf(node)),
        message: `the alias *${node.source} names no anchor set before it: put &${node.source} before the value to repeat (key: &${node.source} value) above this line, or write the value out`,
      });
    } else if (repeatLine === undefined && hasAlias(target)) repeatLine = lineAt(startOf(node));
  });
  return repeatLine === undefined ? { problems } : { problems, repeatLine };
}
