// richtext fields: Markdown rendered to HTML at build time. Raw HTML in the source is escaped, not
// passed through, so content cannot inject markup or scripts into the sites that show it.
import { createRequire } from 'node:module';
import type { Tokens } from 'marked';

type MarkedModule = typeof import('marked');

// marked is loaded by the first Markdown rendered (~15 ms of a cold start): a start whose HTML all
// comes from the parse cache (parse-cache.ts) never loads it. It is an ES module: required when
// first needed where Node can (20.19 and later), else imported by richtextReady(). Not a top-level
// await: that would keep require() of this package from working.
const canRequire = (process.features as { require_module?: boolean }).require_module === true;

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

/** Makes renderRichtext() ready: nothing to do where Node can require marked when it is first needed. */
export async function richtextReady(): Promise<void> {
  if (!marked && !canRequire) marked = create(await import('marked'));
}

export function renderRichtext(markdown: string): string {
  marked ??= create(createRequire(import.meta.url)('marked') as MarkedModule);
  return marked.parse(markdown, { async: false }) as string;
}
