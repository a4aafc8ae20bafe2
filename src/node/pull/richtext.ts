// richtext fields: the API answers the HTML that the build rendered from Markdown, and the loader
// escapes raw HTML, so the pull turns the HTML back into Markdown (turndown, GFM tables) and checks
// the result: rendered again it must give the same HTML. Line breaks inside a paragraph are kept
// (turndown would join the lines; the renderer keeps them, so they must survive).
import TurndownService from 'turndown';
import { tables } from 'turndown-plugin-gfm';
import { RenderBudget, renderBounded, renderRichtext } from '../content/richtext.js';
import { allowedUrl } from '../content/safe-url.js';
import { htmlPastLimits } from './html-depth.js';

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

/** Parsing and converting grow faster than the depth, and with the formatting elements cloned (html-depth.ts). */
const HTML_LIMITS = { depth: 1000, clones: 200_000 };

/** The Markdown, and whether rendering it gives the HTML back byte for byte; or why none is written. */
export type Converted = { readonly markdown: string; readonly exact: boolean } | { readonly problem: string };

/**
 * `html` as Markdown. The check renders within the bounds the build keeps (`budget`: what the
 * entry's other values left), so that a hostile answer costs bounded time and the tree builds.
 */
export function htmlToMarkdown(html: string, budget?: RenderBudget): Converted {
  const past = htmlPastLimits(html, HTML_LIMITS);
  if (past === 'depth') return { problem: `has elements nested more than ${HTML_LIMITS.depth} deep: flatten it` };
  if (past === 'clones')
    return {
      problem: `leaves formatting elements (b, i, a, …) open where the HTML parser would make them again ${HTML_LIMITS.clones.toLocaleString('en')} times or more: close them`,
    };
  const kept = html.replace(/([^>\n])\n(?=[^<\n])/g, `$1${BREAK}`);
  let markdown: string;
  try {
    markdown = turndown
      .turndown(kept)
      .replaceAll(BREAK, '\n')
      .replace(/^(\s*)(-|\d+\.) {2,}/gm, '$1$2 ');
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return { problem: 'is nested too deeply to convert (elements inside each other, thousands of levels)' };
  }
  const rendered = renderBounded(markdown, renderRichtext, budget);
  if ('problem' in rendered) return { problem: `as Markdown ${rendered.problem}` };
  return { markdown, exact: rendered.html === html };
}

/**
 * Converts the richtext values of one entry (one file, one render budget, as the build reads it).
 * Warns about a value that does not convert exactly; one that cannot be written is left out (undefined).
 */
export function entryRichtext(warn: (message: string) => void): (html: string, where: string) => string | undefined {
  const budget = new RenderBudget();
  return (html, where) => {
    const converted = htmlToMarkdown(html, budget);
    if ('problem' in converted) {
      warn(`${where}: left out of the tree: the value ${converted.problem}`);
      return undefined;
    }
    if (!converted.exact) warn(`${where}: the HTML converted to Markdown does not render exactly the same; check that entry`);
    return converted.markdown;
  };
}
