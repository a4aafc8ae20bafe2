// richtext fields: Markdown rendered to HTML at build time. Raw HTML in the source is escaped, not
// passed through, so content cannot inject markup or scripts into the sites that show it.
import { Marked, type Tokens } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

// Link and image targets with a script-running scheme are dropped (the text stays).
const UNSAFE_URL = /^\s*(?:javascript|vbscript|data):/i;

const marked = new Marked({
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

export function renderRichtext(markdown: string): string {
  return marked.parse(markdown, { async: false }) as string;
}
