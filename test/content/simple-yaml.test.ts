import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect, isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from '../../src/node/content/front-matter.js';
import { parseYamlFully } from '../../src/node/content/parse.js';
import { parseSimpleYaml } from '../../src/node/content/simple-yaml.js';

const sorted = (lines: ReadonlyMap<string, number>) => [...lines].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Whether the fast path read `text` as the `yaml` package does: value, lines, no problems. */
function agrees(text: string): boolean {
  const fast = parseSimpleYaml(text);
  if (!fast) return false;
  const full = parseYamlFully(text);
  expect(full.parsed.problems, text).toEqual([]);
  // Not toStrictEqual: it compares a `constructor` key as the objects' classes.
  expect(isDeepStrictEqual(fast.value, full.parsed.value), `${text}\n${inspect(fast.value)}\n${inspect(full.parsed.value)}`).toBe(true);
  expect(sorted(fast.paths), text).toEqual(sorted(full.parsed.paths()));
  expect(sorted(fast.top), text).toEqual(sorted(full.topLines()));
  return true;
}

/** Every YAML text of a tree: .yaml files, and the front matter of .md files. */
function yamlTexts(dir: string): string[] {
  const texts: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const text = readFileSync(join(e.parentPath, e.name), 'utf8');
    if (/\.ya?ml$/.test(e.name)) texts.push(text);
    if (e.name.endsWith('.md')) {
      const front = splitFrontMatter(text).front;
      if (front && !front.empty) texts.push(front.matter);
    }
  }
  return texts;
}

const SAMPLE = yamlTexts('content');

const KEYS = [
  'k'.repeat(1000),
  'k'.repeat(1025),
  'k\u00a0',
  '\u00a0k',
  'hero.png',
  'posts/a.png',
  '1.5',
  '0x1',
  'a.',
  'a',
  'b',
  'title',
  'key-1',
  '_x',
  'A',
  '1',
  'null',
  'True',
  '__proto__',
  'a b',
  '"q"',
  "'q'",
  'x.y',
  'on',
  '-a',
  'constructor',
  '? a',
  'a:b',
  '&x a',
  '[a]',
];
const SCALARS = [
  'a',
  'hello world',
  'x y  z',
  '1',
  '-1',
  '0',
  '-0',
  '007',
  '1.5',
  '-0.5',
  '1.',
  '1e3',
  '.5',
  '0x1F',
  '0o17',
  '+1',
  '~',
  'null',
  'Null',
  'nUll',
  'true',
  'False',
  'TRUE',
  'yes',
  'no',
  '2021-03-01',
  '2023-01-30T16:00:00Z',
  '12:30',
  'http://x.y/z',
  'C#',
  'a #b',
  'a#b',
  'a: b',
  'a:',
  ':a',
  '-a',
  '- a',
  '--',
  '---',
  '?x',
  '*x',
  '&x',
  '!x',
  '!!str 1',
  '%x',
  '@x',
  '`x',
  '"q"',
  "'q'",
  '"a\\"b"',
  '"a\\nb"',
  "'it''s'",
  '"x" y',
  "'x'y",
  '"a # b"',
  '"unclosed',
  '[a, b]',
  '[]',
  '{}',
  '{ a: 1 }',
  '{a: 1, a: 2}',
  '{a:1}',
  '[a, [b]]',
  '[a,]',
  '[a, , b]',
  '[ "x, y", z ]',
  "['a''b', c]",
  '{ a: [1] }',
  '[a] x',
  '[a] # c',
  '{ b: c } #',
  '#c',
  '.inf',
  '-.inf',
  '.NaN',
  '12345678901234567890',
  '1_000',
  '0.1234567890123456789',
  'é ü',
  '🙂',
  '|',
  '>',
  '|-',
  '>-',
  '|+',
  '|2',
  '| # c',
  'a\tb',
  'a  ',
  '',
  '…',
  'a \\ b',
  "'multi",
  '[a,',
  '{ a: b',
  '"a\\u00e9"',
  'a\u00a0',
  '\u00a0a',
  'a\u00a0#b',
  'x\u3000y',
  'a:\u00a0b',
  '[\u00a0x ]',
  'x\u0085y',
  'x\u0080y',
  'x\ufffey',
  '-\u00a0x',
  `${'v'.repeat(1030)}`,
];
const key = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', 'title', 'key-1', '_x', 'A'), weight: 6 },
  { arbitrary: fc.constantFrom(...KEYS), weight: 1 },
);
const scalar = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'hello world', '1', '1.5', 'true', '~', '"q"', "'q'", '[a, b]', '{ a: 1, b: [c] }'), weight: 3 },
  { arbitrary: fc.constantFrom(...SCALARS), weight: 1 },
);
const INDENTS = ['', '', '', '', '', '  ', '  ', '  ', '    ', ' ', '   ', '\u00a0', ' \u00a0'];
const LINE_SHAPES: fc.Arbitrary<string>[] = [
  fc.tuple(fc.constantFrom(...INDENTS), key, fc.constantFrom(': ', ': ', ':  ', ':', ' : '), scalar).map((p) => p.join('')),
  fc.tuple(fc.constantFrom(...INDENTS), key).map(([i, k]) => `${i}${k}:`),
  fc.tuple(fc.constantFrom(...INDENTS), fc.constantFrom('- ', '- ', '-  ', '-'), scalar).map((p) => p.join('')),
  fc.tuple(fc.constantFrom(...INDENTS), fc.constantFrom('- ', '-   '), key, scalar).map(([i, d, k, v]) => `${i}${d}${k}: ${v}`),
  fc
    .tuple(fc.constantFrom(...INDENTS), fc.constantFrom('text', 'more text', '# not a comment', '', 'a: b', '- x', '  deeper', 'trailing '))
    .map((p) => p.join('')),
  fc.constantFrom('', '', '# comment', '  # indented comment', '   ', '---', '...', '%YAML 1.2', '\r', '\t'),
];

/** A text of lines drawn from YAML's usual shapes, right or wrong. */
const lineSoup = fc
  .array(fc.oneof(...LINE_SHAPES), { minLength: 1, maxLength: 14 })
  .chain((lines) => fc.constantFrom('', '\n', '\n\n').map((end) => lines.join('\n') + end));

// A tree of mappings, lists, scalars and block scalars, written with a random indentation and
// comments and blank lines between: mostly right, often not.
type Node = { s: string } | { m: [string, Node][] } | { q: Node[] } | { b: [string, string[]] };
const BLOCK_LINES = ['text', 'more text', '', '', '  indented', '# hash', 'a: b', '- x', 'end '];
const { node } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    { arbitrary: scalar.map((s) => ({ s })), weight: 3 },
    { arbitrary: fc.array(fc.tuple(key, tie('node')), { minLength: 1, maxLength: 4 }).map((m) => ({ m })), weight: 2 },
    { arbitrary: fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((q) => ({ q })), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom('|', '|-', '>', '>-', '|+', '>2'), fc.array(fc.constantFrom(...BLOCK_LINES), { minLength: 1, maxLength: 5 }))
        .map((b) => ({ b })),
      weight: 1,
    },
  ),
}));

/** `node` as the lines after `head` (`key:` or `-`), at `indent`; `step`: how much deeper a level goes. */
function render(head: string, n: Node, indent: string, step: string, sameIndentList: boolean): string[] {
  if ('s' in n) return [`${indent}${head} ${n.s}`.replace(/^(\s*)- $/, '$1-')];
  if ('b' in n) return [`${indent}${head} ${n.b[0]}`, ...n.b[1].map((l) => (l === '' ? '' : `${indent}${step}${l}`))];
  if ('m' in n) {
    if (head.startsWith('-')) {
      // `- key: value`, the next keys under the first
      const [first, ...rest] = n.m.map(([k, v]) => render(`${k}:`, v, `${indent}  `, step, sameIndentList));
      return [...(first ?? []).map((l, i) => (i === 0 ? `${indent}- ${l.trimStart()}` : l)), ...rest.flat()];
    }
    const inner = head === '' ? indent : `${indent}${step}`;
    return [...(head === '' ? [] : [`${indent}${head}`]), ...n.m.flatMap(([k, v]) => render(`${k}:`, v, inner, step, sameIndentList))];
  }
  const inner = head.startsWith('-') || !sameIndentList ? `${indent}${step}` : indent;
  return [`${indent}${head}`, ...n.q.flatMap((item) => render('-', item, inner, step, sameIndentList))];
}

const tree = fc
  .tuple(
    fc.array(fc.tuple(key, node), { minLength: 1, maxLength: 5 }),
    fc.constantFrom('  ', '  ', '    ', ' ', '   '),
    fc.boolean(),
    fc.array(fc.constantFrom('', '# c', '  # c', 'x'), { maxLength: 2 }),
    fc.nat(),
    fc.constantFrom('', '\n'),
  )
  .map(([m, step, sameIndentList, extras, where, end]) => {
    const lines = render('', { m }, '', step, sameIndentList);
    for (const [i, extra] of extras.entries()) lines.splice((where + i * 7) % (lines.length + 1), 0, extra);
    return lines.join('\n') + end;
  });

/** A sample file with a few characters that matter to YAML put in or taken out. */
const TRICKY = [
  '\u00a0',
  '\u3000',
  ' ',
  '  ',
  ':',
  ': ',
  '#',
  ' #',
  '-',
  '- ',
  '\n',
  '\n  ',
  '"',
  "'",
  '|',
  '>',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&',
  '*',
  '!',
  '0',
  '.',
  'e',
  '~',
  '\\',
  '\t',
];
const mutated = fc
  .tuple(
    fc.constantFrom(...SAMPLE),
    fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat({ max: 3 }), fc.constantFrom(...TRICKY)), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([text, edits]) => {
    let out = text;
    for (const [where, cut, insert] of edits) {
      const at = Math.floor(where * out.length);
      out = out.slice(0, at) + insert + out.slice(at + cut);
    }
    return out;
  });

describe('the fast path of YAML parsing (simple-yaml.ts)', () => {
  it('reads every YAML text of the sample content, as the yaml package does', () => {
    expect(SAMPLE.length).toBeGreaterThan(90);
    for (const text of SAMPLE) expect(agrees(text), text).toBe(true);
  });

  // Each generator is not all refused: enough of its documents take the fast path to mean something.
  it.each([
    ['a document of the usual shapes', lineSoup, 4000, 13, 40],
    ['a generated tree of mappings, lists and scalars', tree, 4000, 42, 200],
    ['a sample file with characters put in or taken out', mutated, 3000, 7, 200],
  ] as const)('reads %s as the yaml package does, or leaves it to it', (_, texts, numRuns, seed, atLeast) => {
    let taken = 0;
    fc.assert(
      fc.property(texts, (text) => {
        if (agrees(text)) taken++;
      }),
      { numRuns, seed },
    );
    expect(taken).toBeGreaterThan(atLeast);
  });

  it('reads long runs of spaces in a value in time proportional to the text', () => {
    const spaces = ' '.repeat(2 ** 20);
    expect(agrees(`a: x${spaces}y\nb: [x${spaces}y, z]\n`)).toBe(true);
  });

  it('leaves anything with an error or a check to the yaml package', () => {
    for (const text of [
      'a: 1\na: 2\n',
      'a: &x 1\nb: *x\n',
      'a: [#fff, #000]\n',
      'a: "x\\ny"\n',
      'a: !!str 1\n',
      'a:\n  b: 1\n c: 2\n',
      '- a\n- b\n',
      'a: b: c\n',
    ]) {
      expect(parseSimpleYaml(text), text).toBeUndefined();
    }
  });
});
