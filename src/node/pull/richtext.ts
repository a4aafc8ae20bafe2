// richtext fields: the API answers the HTML that the build rendered from Markdown, and the loader
// escapes raw HTML, so the pull turns the HTML back into Markdown (turndown, GFM tables) and checks
// the result: rendered again it must give the same HTML. Line breaks inside a paragraph are kept
// (turndown would join the lines; the renderer keeps them, so they must survive).
import TurndownService from 'turndown';
import { tables } from 'turndown-plugin-gfm';
import { renderRichtext } from '../content/richtext.js';
import { allowedUrl } from '../content/safe-url.js';

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
turndown.use(tables);

// A link or image whose target is not http(s), mailto or relative is not written into the tree:
// the link becomes its text, the image its alt text. Checked as the DOM holds the URL and as the
// Markdown will be read again (character references decoded), so `&amp;#106;avascript:` fails too.
const pullable = (url: string | null) => url === null || (allowedUrl(url, true) !== undefined && allowedUrl(url) !== undefined);
turndown.addRule('unsafe-link', {
  filter: (node) => node.nodeName === 'A' && !pullable(node.getAttribute('href')),
  replacement: (content) => content,
});
turndown.addRule('unsafe-image', {
  filter: (node) => node.nodeName === 'IMG' && !pullable(node.getAttribute('src')),
  replacement: (_content, node) => turndown.escape((node as HTMLElement).getAttribute('alt') ?? ''),
});

// A private-use character stands for a line break inside text while turndown runs.
const BREAK = '\uE000';

export interface Converted {
  readonly markdown: string;
  /** Whether rendering `markdown` gives the HTML back, byte for byte. */
  readonly exact: boolean;
}

export function htmlToMarkdown(html: string): Converted {
  const kept = html.replace(/([^>\n])\n(?=[^<\n])/g, `$1${BREAK}`);
  const markdown = turndown
    .turndown(kept)
    .replaceAll(BREAK, '\n')
    .replace(/^(\s*)(-|\d+\.) {2,}/gm, '$1$2 ');
  return { markdown, exact: renderRichtext(markdown) === html };
}
