import fc from 'fast-check';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { frontMatterLanguage, splitFrontMatter } from '../../src/node/content/front-matter.js';
import { parseEntry } from '../../src/node/content/parse.js';

/** What gray-matter 4 makes of `text` with an engine per language that only records its input. */
function grayMatter(text: string): { body: string; engine?: string; matter?: string; error?: string } {
  let called: { engine: string; matter: string } | undefined;
  const engine = (name: string) => (input: string) => {
    called = { engine: name, matter: input };
    return {};
  };
  try {
    const file = matter(text, {
      engines: { yaml: engine('yaml'), json: engine('json'), javascript: engine('javascript'), coffee: engine('coffee') },
    } as never);
    return { body: file.content, ...called };
  } catch (err) {
    return { body: '', error: (err as Error).message };
  }
}

const PIECES = [
  '---',
  '----',
  '-',
  '\n',
  '\r\n',
  '\r',
  ' ',
  'yaml',
  'YML',
  'json',
  'js',
  'cson',
  'toml',
  '# note',
  '#',
  'a: 1',
  'b',
  '---x',
  '\n---\n',
];

describe('front matter, split as gray-matter splits it', () => {
  it('gives the same front matter, language and body as gray-matter for any text', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const theirs = grayMatter(text);
        const ours = splitFrontMatter(text);
        if (theirs.error) {
          const name = /engine "(.*)" is not registered/s.exec(theirs.error)?.[1];
          expect(ours.front && frontMatterLanguage(ours.front.language)).toEqual({ unsupported: name });
          return;
        }
        expect(ours.body).toBe(theirs.body);
        if (theirs.engine === undefined) {
          expect(ours.front === undefined || ours.front.empty).toBe(true);
          return;
        }
        expect(ours.front?.empty).toBe(false);
        expect(ours.front?.matter).toBe(theirs.matter);
        const language = frontMatterLanguage(ours.front?.language ?? '');
        expect(language).toEqual(theirs.engine === 'yaml' || theirs.engine === 'json' ? { yaml: true } : { unsupported: theirs.engine });
      }),
      { numRuns: 2000, seed: 13 },
    );
  });

  it('reads the body, the fields and their lines of a Markdown entry', () => {
    const parsed = parseEntry('markdown', '---yaml\r\ntitle: Hi\r\n# a comment\r\ntags: [a]\r\n---\r\n\r\nBody\r\n', true);
    expect(parsed.problems).toEqual([]);
    expect(parsed.data).toEqual({ title: 'Hi', tags: ['a'] });
    expect(parsed.body).toBe('\r\nBody\r\n');
    expect([parsed.lines.get('title'), parsed.lines.get('tags'), parsed.bodyLine]).toEqual([2, 4, 6]);
  });

  it('names a language it does not read, unless the front matter holds only comments', () => {
    expect(parseEntry('markdown', '---toml\ntitle = "x"\n---\nBody').problems).toEqual([
      { line: 1, message: "front matter language 'toml' is not supported; use YAML" },
    ]);
    expect(parseEntry('markdown', '---js\n{ title: 1 }\n---\nBody').problems).toEqual([
      { line: 1, message: "front matter language 'javascript' is not supported; use YAML" },
    ]);
    expect(parseEntry('markdown', '---toml\n# nothing yet\n---\nBody').data).toEqual({});
  });
});
