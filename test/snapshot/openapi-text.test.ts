// Text from the content in /openapi.json: a `description` is CommonMark (OpenAPI 3.1), and
// Swagger UI on /reference renders it with raw HTML allowed, so a project's description or a
// collection's name must come out as the text written, never as markup (a link to a phishing
// page, an <input>, an <img onerror>) on the page where people type their token.
import { marked } from 'marked';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/node/build-snapshot.js';

const HOSTILE = [
  '<img src=x onerror=alert(1)><a href="https://evil.example/login">Your token expired</a>',
  '<form action=https://evil.example><input name=t placeholder=token></form> [re-enter it](https://evil.example/login)',
  '![x](https://evil.example/x.png) **bold** _it_ `code` ~~gone~~ a_b_c \\ &amp; &#60;b&#62; & co',
  '| a | b |',
  '|---|---|',
  '# heading',
  '- item',
  '+ item',
  '* item',
  '1. one',
  '2) two',
  '> quote',
  '    indented',
  '```',
  '===',
  '---',
].join('\n');
const NAME = '<b onclick=x>Posts</b> & *news*';
const VALUES = ['<i>S</i>', '[M](https://evil.example)'];

/** The YAML double-quoted form of `s`. */
const quoted = (s: string): string => JSON.stringify(s);

/**
 * What a CommonMark renderer (marked) shows for `markdown`: its text, and the elements it makes
 * other than paragraphs and line breaks, also with GFM's tables, strikethrough and autolinks
 * (as Swagger UI's renderers have), where only a bare URL made a link to itself may appear.
 */
function shown(markdown: string): { tags: string[]; text: string } {
  const decode = (s: string): string =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  const render = (gfm: boolean): string =>
    marked
      .parse(markdown, { async: false, gfm })
      .replace(/<a href="([^"]*)">([^<]*)<\/a>/g, (link, href: string, text: string) =>
        decodeURI(decode(href)) === decode(text) ? text : link,
      )
      .replace(/<\/?(p|br)\s*\/?>/g, ' ');
  const tags = [render(false), render(true)].flatMap((html) => [...html.matchAll(/<\/?([a-z0-9]+)/gi)].map((m) => m[1] as string));
  return { tags, text: decode(render(false)).replace(/\s+/g, ' ').trim() };
}
const plain = (s: string): string => s.replace(/\s+/g, ' ').trim();

let cqa: any, elmapi: any, v3: any;
beforeAll(async () => {
  const snapshot = await buildSnapshot({
    content: {
      'c/project.yaml': `id: c\npublic: true\ndescription: ${quoted(HOSTILE)}\n`,
      'c/posts/_collection.yaml': `name: ${quoted(NAME)}\nfields:\n  title: text\n`,
      'c/posts/a.yaml': 'title: A\n',
      'e/project.yaml': `id: e\nname: ${quoted(HOSTILE)}\npublic: true\ndialect: elmapi\n`,
      'e/notes/_collection.yaml': `name: ${quoted(NAME)}\nfields:\n  size: { type: enumeration, multiple: true, values: ${JSON.stringify(VALUES)} }\n`,
      'v/project.yaml': 'id: 3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10\npublic: true\ndialect: elmapi3\n',
      'v/settings/_collection.yaml': `name: ${quoted(NAME)}\nsingleton: true\nfields:\n  name: text\n`,
      'v/items/_collection.yaml': `name: ${quoted(NAME)}\nfields:\n  name: text\n`,
    },
  });
  cqa = JSON.parse(snapshot.openapiOf(['c']));
  elmapi = JSON.parse(snapshot.openapiOf(['e']));
  v3 = JSON.parse(snapshot.openapiOf(['3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10']));
});

describe('content text in the OpenAPI document', () => {
  it('renders a project description or name as the text written, without elements', () => {
    for (const [doc, id] of [
      [cqa, 'c'],
      [elmapi, 'e'],
    ])
      expect(shown(doc.tags.find((t: { name: string }) => t.name === id).description)).toEqual({ tags: [], text: plain(HOSTILE) });
  });

  it('renders a collection name and enumeration values in descriptions as written', () => {
    const descriptions = [
      [cqa.paths['/api/c/posts'].get.responses['200'].description, NAME],
      [cqa.components.schemas['c.posts.where'].description, `Conditions on ${NAME}: where[field]=value or where[field][operator]=value.`],
      [elmapi.paths['/api/e/notes'].get.responses['200'].description, NAME],
      [elmapi.components.schemas['e.notes'].properties.size.description, `values of ${VALUES.join(', ')}, joined by commas`],
      [v3.paths['/api/items'].get.responses['200'].description, NAME],
      [
        v3.paths['/api/settings'].get.responses['200'].description,
        `${NAME}: a singleton, so its one entry (in the default locale unless locale= is given)`,
      ],
    ];
    for (const [markdown, text] of descriptions) expect(shown(markdown)).toEqual({ tags: [], text });
  });

  it('keeps identifiers, summaries and titles (plain text in OpenAPI) as written', () => {
    expect(cqa.tags.map((t: { name: string }) => t.name)).toEqual(['c']);
    expect(cqa.paths['/api/c/posts'].get.summary).toBe(`List ${NAME}`);
    expect(cqa.components.schemas['c.posts'].title).toBe(NAME);
    expect(elmapi.paths['/api/e'].get.summary).toBe(`Project ${HOSTILE}`);
    expect(elmapi.components.schemas['e.notes'].properties.size['x-cqa-enum']).toEqual(VALUES);
  });
});
