// Splitting a Markdown file into its front matter and its body, exactly as gray-matter 4 does
// (test/content/front-matter.test.ts compares the two). Its parsers were never used (ours is YAML
// 1.2, parse.ts), but loading it loaded js-yaml and esprima too: ~35 ms of CPU of each cold start.

export interface FrontMatter {
  /** The language named after the opening `---` (`---yaml`), trimmed; '' when none. */
  readonly language: string;
  /** The text after the opening `---` and the language, up to the closing `\n---`. */
  readonly matter: string;
  /** Nothing but blank and `#` comment lines: gray-matter gives `{}` without parsing it. */
  readonly empty: boolean;
}

export interface SplitMarkdown {
  /** Undefined when the file does not start with `---` (then it is all body). */
  readonly front: FrontMatter | undefined;
  readonly body: string;
}

const OPEN = '---';
const CLOSE = '\n---';

export function splitFrontMatter(text: string): SplitMarkdown {
  // `----` (a rule, or a longer delimiter) is no front matter.
  if (!text.startsWith(OPEN) || text.charAt(OPEN.length) === '-') return { front: undefined, body: text };
  let rest = text.slice(OPEN.length);
  const raw = rest.slice(0, rest.search(/\r?\n/));
  const language = raw.trim();
  if (language !== '') rest = rest.slice(raw.length);
  let close = rest.indexOf(CLOSE);
  if (close === -1) close = rest.length;
  const matter = rest.slice(0, close);
  const empty = matter.replace(/^\s*#[^\n]+/gm, '').trim() === '';
  let body = close === rest.length ? '' : rest.slice(close + CLOSE.length);
  if (body.startsWith('\r')) body = body.slice(1);
  if (body.startsWith('\n')) body = body.slice(1);
  return { front: { language, matter, empty }, body };
}

/**
 * What a front matter language names, as gray-matter looks engines up: 'yaml' (or `yml`, in any
 * case, and `json`, which is YAML too), else the language to name in "not supported".
 */
export function frontMatterLanguage(name: string): { readonly yaml: true } | { readonly unsupported: string } {
  if (name === '' || name === 'yaml' || name === 'json') return { yaml: true };
  if (name === 'javascript' || name === 'coffee') return { unsupported: name };
  switch (name.toLowerCase()) {
    case 'yaml':
    case 'yml':
      return { yaml: true };
    case 'js':
    case 'javascript':
      return { unsupported: 'javascript' };
    case 'coffee':
    case 'coffeescript':
    case 'cson':
      return { unsupported: 'coffee' };
    default:
      return { unsupported: name };
  }
}
