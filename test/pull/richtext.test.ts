// Issue 20, item 1, for `cqa pull`: HTML from another API with script links must not turn into
// Markdown links in the tree (even though the renderer would drop them, the file is what a
// reviewer reads and what another tool may render). The link keeps its text, the image its alt.
import { Lexer, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/node/pull/richtext.js';

/** Every link and image destination in `markdown`, as the Markdown lexer reads it. */
function destinations(markdown: string): string[] {
  const found: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if ((t.type === 'link' || t.type === 'image') && 'href' in t) found.push(t.href as string);
      if ('tokens' in t && t.tokens) walk(t.tokens);
      if (t.type === 'list') walk(t.items);
    }
  };
  walk(new Lexer({ gfm: true }).lex(markdown));
  return found;
}

const HOSTILE: readonly (readonly [string, string])[] = [
  ['<p><a href="javascript:alert(1)">x</a></p>', 'x'],
  ['<p><a href="&amp;#106;avascript:alert(1)">x</a></p>', 'x'],
  ['<p><a href="jav&#x09;ascript:alert(1)" title="t">x</a></p>', 'x'],
  ['<p><a href=" &#1;JavaScript&colon;alert(1)">x</a></p>', 'x'],
  ['<p><a href="javascript&amp;colon;alert(1)">x</a></p>', 'x'],
  ['<p><a href="vbscript:msgbox(1)">x</a></p>', 'x'],
  ['<p><img src="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;" alt="a*b"></p>', 'a\\*b'],
  ['<p><a href="data:text/html;base64,PHNjcmlwdD4=">x <img src="/ok.png" alt="i"></a></p>', 'x ![i](/ok.png)'],
];

describe('cqa pull: richtext links', () => {
  it.each(HOSTILE)('writes %j without its script target', (html, markdown) => {
    const converted = htmlToMarkdown(html);
    expect(converted.markdown).toBe(markdown);
    expect(destinations(converted.markdown).filter((d) => !d.startsWith('/'))).toEqual([]);
  });

  it('keeps safe links and images as they are', () => {
    const html = '<p><a href="https://example.com/a?b=1&amp;c=2">x</a> <a href="/posts/a">y</a> <img src="/i.png" alt="i"></p>\n';
    const converted = htmlToMarkdown(html);
    expect(converted).toEqual({ markdown: '[x](https://example.com/a?b=1&c=2) [y](/posts/a) ![i](/i.png)', exact: true });
  });
});
