// richtext fields: Markdown rendered to HTML at build time. Raw HTML in the source is escaped, not
// passed through, so content cannot inject markup or scripts into the sites that show it.
import { createRequire } from 'node:module';
import type { Tokens } from 'marked';

type MarkedModule = typeof import('marked');

// marked is loaded by the first Markdown rendered (~15 ms of a cold start): a start whose HTML all
// comes from the parse cache (parse-cache.ts) never loads it. It is an ES module: required when
// needed where Node can (20.19 and later), imported with this module where it cannot.
const early: MarkedModule | undefined = (process.features as { require_module?: boolean }).require_module ? undefined : await import('marked');

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

// Link and image targets with a script-running scheme are dropped (the text stays).
const UNSAFE_URL = /^\s*(?:javascript|vbscript|data):/i;

function create({ Marked }: MarkedModule) {
  return new Marked({
    async: false,
    gfm: true,
    renderer: {
      html(token: Tokens.HTML | Tokens.Tag): string {
        return escapeHtml(token.text);
      },
      link(this: unknown, token: Tokens.Link): string | false {
        if (!UNSAFE_URL.test(token.href)) return false; // default rendering
        return (this as { parser: { parseInline(t: Tokens.Generic[]): string } }).parser.parseInline(token.tokens);
      },
      image(token: Tokens.Image): string | false {
        if (!UNSAFE_URL.test(token.href)) return false;
        return escapeHtml(token.text);
      },
    },
  });
}

let marked: ReturnType<typeof create> | undefined;

export function renderRichtext(markdown: string): string {
  marked ??= create(early ?? (createRequire(import.meta.url)('marked') as MarkedModule));
  return marked.parse(markdown, { async: false }) as string;
}
