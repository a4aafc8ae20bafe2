import { describe, expect, it } from 'vitest';
import { renderRichtext } from '../../src/node/content/richtext.js';

describe('richtext rendering', () => {
  it('renders Markdown to HTML', () => {
    expect(renderRichtext('# Title\n\nSome *em* and a [link](https://example.com).')).toBe(
      '<h1>Title</h1>\n<p>Some <em>em</em> and a <a href="https://example.com">link</a>.</p>\n',
    );
  });

  it('escapes raw HTML blocks and inline tags instead of passing them through', () => {
    const html = renderRichtext('<script>alert(1)</script>\n\nText with <img src=x onerror=alert(1)> inline.');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<p>Text with &lt;img src=x onerror=alert(1)&gt; inline.</p>');
  });

  it('drops script-running link and image targets but keeps their text', () => {
    expect(renderRichtext('[click](javascript:alert(1)) ![pic](data:text/html;base64,xx)')).toBe('<p>click pic</p>\n');
  });
});

// Markdown that marked cannot render in bounded stack or time is a content error naming the file
// and field (found from outside: 3 KB of `>` crashed check, build and serve with "Maximum call
// stack size exceeded"; 160 KB of `*a` took 3 s, 640 KB 48 s).
describe('richtext that cannot be rendered in bounded time or stack', () => {
  it('is a content error naming the file and field, in a richtext field and a rendered body', async () => {
    const { load } = await import('./helpers.js');
    const r = await load({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/posts/_collection.yaml': 'render: html\nfields:\n  title: text\n  intro: richtext\n',
      'p/posts/deep.yaml': `title: Deep\nintro: "${'>'.repeat(5000)} x"\n`,
      'p/posts/marks.md': `---\ntitle: Marks\n---\n${'_a'.repeat(12_000)}\n`,
      'p/posts/fine.md': `---\ntitle: Fine\nintro: "${'*a* '.repeat(2_000)}"\n---\n${'> '.repeat(50)}quoted\n`,
      // Ever deeper list items (found from outside: 4 MB of them ran check out of memory).
      'p/posts/lists.md': `---\ntitle: Lists\n---\n${Array.from({ length: 200 }, (_, i) => `${' '.repeat(2 * i)}- a`).join('\n')}\n`,
      // The same lines inside a fenced code block are code, and a few levels of list are fine.
      'p/posts/code.md': `---\ntitle: Code\n---\n- a\n  - b\n    - c\n\n\`\`\`yaml\n${' '.repeat(80)}- deep: yes\n\`\`\`\n`,
    });
    expect(r.issues.map((i) => [i.file, i.field, i.message])).toEqual([
      ['p/posts/deep.yaml', 'intro', expect.stringContaining('the Markdown is nested too deeply to render')],
      ['p/posts/lists.md', 'body', expect.stringContaining('has a list item indented more than 64 columns (its line 34)')],
      ['p/posts/marks.md', 'body', expect.stringContaining('holds 12,000 emphasis marks (* _ ~), more than the 5,000')],
    ]);
    // A rendered body's problem names the option that renders it, and the line the body starts on.
    expect(r.issues.find((i) => i.file === 'p/posts/marks.md')).toMatchObject({
      line: 4,
      message: expect.stringMatching(/^cannot be rendered for render: html \(p\/posts\/_collection\.yaml\): the Markdown holds/),
    });
  });

  it('renders a 1 MB body of ordinary paragraphs (found from outside: 950 KB of 1 KB paragraphs were refused)', async () => {
    const { load } = await import('./helpers.js');
    const paragraph = 'lorem ipsum dolor sit amet '.repeat(75).trim(); // 2 KB
    const r = await load({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/posts/_collection.yaml': 'render: html\nfields:\n  title: text\n',
      'p/posts/long.md': `---\ntitle: Long\n---\n${Array(500).fill(paragraph).join('\n\n')}\n`,
    });
    expect(r.issues).toEqual([]);
    expect(r.model.projects[0]?.collections[0]?.entries[0]?.values.body_html).toMatch(/^<p>lorem ipsum/);
  });

  // A file's blocks together (four rendered at the bound, ~10 s): limits.slow.test.ts.
  it('refuses a block too large to render in bounded time; fenced code is not counted (found from outside: 160 KB of lazy list lines took 23.6 s)', async () => {
    const { load } = await import('./helpers.js');
    const r = await load({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  notes: { type: richtext, multiple: true }\n',
      'p/posts/lazy.yaml': `title: Lazy\nnotes: [${JSON.stringify(`- a\n${'b\n'.repeat(20_000)}`)}]\n`,
      'p/posts/mail.yaml': `title: Mail\nnotes: [${JSON.stringify(`${'a'.repeat(40_000)}@`)}]\n`,
      'p/posts/code.yaml': `title: Code\nnotes: [${JSON.stringify(`\`\`\`\n${'x = a*b_c @d\n'.repeat(10_000)}\`\`\`\n`)}]\n`,
      // Lines that only look like a fence are text to marked, and counted (found from outside).
      'p/posts/fake.yaml': `title: Fake\nnotes: [${JSON.stringify(`\`\`\`x\`\n\n- a\n${'b\n'.repeat(20_000)}\`\`\`x\`\n`)}, ${JSON.stringify(`p\n    \`\`\`\n- a\n${'b\n'.repeat(20_000)}    \`\`\`\n`)}]\n`,
    });
    const byFile = (f: string) => r.issues.filter((i) => i.file === `p/posts/${f}.yaml`).map((i) => i.message);
    expect(byFile('lazy')).toEqual([
      expect.stringMatching(
        /^item 1: the Markdown has a block of 40,0\d\d characters without a blank line \(a paragraph or list item\), more than the 32,768/,
      ),
    ]);
    expect(byFile('mail')).toEqual([expect.stringMatching(/^item 1: the Markdown has a block of 40,00\d characters/)]);
    expect(byFile('code')).toEqual([]);
    expect(byFile('fake')).toEqual([
      expect.stringMatching(/^item 1: the Markdown has a block of 40,0\d\d characters/),
      expect.stringMatching(/^item 2: the Markdown has a block of 40,0\d\d characters/),
    ]);
  });

  it('renders large lists, tables and many emphasis marks spread over blocks (found from outside: a 42 KB changelog and a 50 KB table were refused)', async () => {
    const { load } = await import('./helpers.js');
    const words = 'lorem ipsum dolor sit amet';
    // A tight list: each item is a block of its own to marked, not the whole list.
    const changelog = Array.from({ length: 3000 }, (_, i) => `${i % 3 ? '  - ' : '- '}${words} \`snake_case_${i}\` **bold**`).join('\n');
    const ordered = Array.from({ length: 2500 }, (_, i) => `${i + 1}. ${words}`).join('\n');
    const table = `| n | text | a | b |\n|---|:--|--:|---|\n${Array.from({ length: 20_000 }, (_, i) => `| ${i} | ${words} *x* | y_z | w |`).join('\n')}`;
    const r = await load({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/posts/_collection.yaml': 'render: html\nfields:\n  title: text\n  notes: richtext\n',
      'p/posts/changelog.md': `---\ntitle: Changelog\n---\n${changelog}\n`,
      'p/posts/ordered.md': `---\ntitle: Ordered\n---\n${ordered}\n`,
      'p/posts/table.yaml': `title: Table\nnotes: ${JSON.stringify(table)}\n`,
    });
    expect(r.issues).toEqual([]);
    const html = (id: string, field: string) =>
      r.model.projects[0]?.collections[0]?.entries.find((e) => e.id === id)?.values[field] as string;
    expect(changelog.length).toBeGreaterThan(150_000);
    expect(html('changelog', 'body_html').match(/<li>/g)).toHaveLength(3000);
    expect(html('ordered', 'body_html').match(/<li>/g)).toHaveLength(2500);
    expect(html('table', 'notes').match(/<tr>/g)).toHaveLength(20_001);
  });

  it('refuses tables whose rows would get more cells than bounded: each row gets as many as its header (found from outside: 32 KB of them ran marked out of memory)', async () => {
    const { load } = await import('./helpers.js');
    const wide = (columns: number, rows: number, gap = '') =>
      `${'|a'.repeat(columns)}|\n${'|-'.repeat(columns)}|\n${gap}${'|\n'.repeat(rows)}`;
    const r = await load({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  notes: { type: richtext, multiple: true }\n',
      // 6 KB: a million cells, 10 MB of HTML.
      'p/posts/wide.yaml': `title: Wide\nnotes: [${JSON.stringify(wide(1000, 1000))}]\n`,
      // In a quote and a list item too, and a tabs-only line does not end the rows (marked reads on).
      'p/posts/nested.yaml': `title: Nested\nnotes: [${JSON.stringify(`> ${wide(500, 1).replace(/\n/g, '\n> ')}${'|\n'.repeat(300)}`)}, ${JSON.stringify(`- x\n  ${'|a'.repeat(500)}|\n  ${'|-'.repeat(500)}|\n\t\n${'|\n'.repeat(300)}`)}]\n`,
      // Under the bound alone, not five together.
      'p/posts/many.yaml': `title: Many\nnotes: [${Array(5)
        .fill(JSON.stringify(wide(100, 900)))
        .join(', ')}]\n`,
    });
    const byFile = (f: string) => r.issues.filter((i) => i.file === `p/posts/${f}.yaml`).map((i) => i.message);
    expect(byFile('wide')).toEqual([
      expect.stringMatching(
        /^item 1: the Markdown has tables of 1,002,000 cells \(each row gets as many as its header\), more than the 100,000/,
      ),
    ]);
    expect(byFile('nested')).toEqual([
      expect.stringMatching(/^item 1: the Markdown has tables of 1\d\d,\d{3} cells/),
      expect.stringMatching(/^item 2: the Markdown has tables of 1\d\d,\d{3} cells/),
    ]);
    expect(byFile('many')).toEqual([
      expect.stringMatching(/^item 5: the Markdown brings the file's tables past the 400,000 cells one file may hold/),
    ]);
  });

  it('splits a block only where marked certainly starts a new item, heading or table row (found from outside: `2.` lines inside an item took 90 s)', async () => {
    const { load } = await import('./helpers.js');
    const value = (md: string) => JSON.stringify(md);
    // Each of these is one paragraph inside one list item to marked: its lines are merged one by one.
    const hostile = [
      `- x\n${'  2. y\n'.repeat(20_000)}`, // another number than 1 cannot interrupt a paragraph
      `- x\n${'  *\n'.repeat(20_000)}`, // nor an empty item
      `1. x\n${'   2. y\n'.repeat(20_000)}`, // indented: the item's content, not a sibling
      `- x\n${'      - y\n'.repeat(20_000)}`, // four past the item's text: a continuation
      `- a|b\n  |-|\n${'  c|\n'.repeat(20_000)}`, // no table: its header and delimiter differ
      `|a|\n|-|\n- x\n${'|y\n'.repeat(20_000)}`, // the list item ends the table; the rows after it are its lines
      `<div>\n\`\`\`\n\n- x\n${'y\n'.repeat(20_000)}\`\`\`\n`, // a fence in an HTML block is none
      `${'- '.repeat(40)}x\n`, // nested by markers on one line
      `- a\n${'> - x\n    - y\n'.repeat(16_000)}`, // a quote's lazy lines (found from outside: 224 KB, 50 s)
      '- y\n'.repeat(200_001), // more parts than one file may hold (4 MiB of them: 870 MB)
    ];
    // Ordinary documents: an intro line, headings, wrapped items, nested numbered steps.
    const changelog = Array.from(
      { length: 200 },
      (_, v) =>
        `## v1.${v}.0\nChanges:\n${Array.from({ length: 10 }, (_, i) => `- change ${i} of the release\n  wrapped onto a second line\n  1. step one\n  2. step two`).join('\n')}`,
    ).join('\n');
    const r = await load({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  notes: richtext\n',
      ...Object.fromEntries(hostile.map((md, i) => [`p/posts/h${i}.yaml`, `title: H\nnotes: ${value(md)}\n`])),
      'p/posts/changelog.yaml': `title: C\nnotes: ${value(changelog)}\n`,
    });
    expect(changelog.length).toBeGreaterThan(150_000);
    // Refused before marked runs: too large a block, or too many marks in one.
    const tooLarge = expect.stringMatching(/^the Markdown (has a block of [\d,]+ characters|holds [\d,]+ emphasis marks)/);
    expect(r.issues.map((i) => [i.file, i.message.replace(/ \(.*/, '')])).toEqual([
      ...[0, 1, 2, 3, 4, 5, 6].map((i) => [`p/posts/h${i}.yaml`, tooLarge]),
      ['p/posts/h7.yaml', 'the Markdown has a list item indented more than 64 columns'],
      ['p/posts/h8.yaml', tooLarge],
      [
        'p/posts/h9.yaml',
        "the Markdown brings the file's paragraphs, list items, headings and table rows past the 200,000 one file may hold to be rendered in bounded memory: split the file",
      ],
    ]);
  });

  it("bounds the emphasis of a file's values together (found from outside: the bound was per value, and 5,000 mixed marks take ~0.4 s)", async () => {
    const { load } = await import('./helpers.js');
    const value = JSON.stringify('*a_'.repeat(2_000)); // 4,000 marks: under the bound alone
    const r = await load({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  notes: { type: richtext, multiple: true }\n',
      'p/posts/one.yaml': `title: One\nnotes: [${value}]\n`,
      'p/posts/many.yaml': `title: Many\nnotes: [${Array(50).fill(value).join(', ')}]\n`,
    });
    // The first value is rendered; each later one is refused by name (49 of 50).
    expect(r.issues.map((i) => [i.file, i.field])).toEqual(Array(49).fill(['p/posts/many.yaml', 'notes']));
    expect(r.issues[0]?.message).toBe(
      "item 2: the Markdown holds 4,000 emphasis marks (* _ ~), too many after the file's other richtext values to be rendered in bounded time (a file's values may cost as much as one value of 5,000): split the file, or escape literal ones (\\*)",
    );
  });
});
