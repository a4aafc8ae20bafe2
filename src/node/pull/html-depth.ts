// How deep the elements of an API's HTML may nest, found in one linear pass before it is parsed:
// parsing and converting a tree grow faster than its depth (20,000 levels: seconds, then a stack
// overflow; found from outside). The pass follows the HTML tokenizer where it decides what is a
// tag — quoted attribute values may hold `<` and `>`, comments and raw text (script, style,
// textarea, title) hold no tags — and errs on the deep side where the tree builder is cleverer:
// an end tag closes only the innermost element when it names it, `/>` closes only in svg and math.
// It also bounds the formatting elements (b, i, a, …) the tree builder clones: one left open when
// its parent closes is made again before each later tag and text, so 500 distinct unclosed `<b>`s
// and 2,000 paragraphs (24 KB) made 1.2 GB of nodes in 52 s (found from outside).

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes']);
/** Where `/>` closes an element and raw-text names are elements like any other. */
const FOREIGN = new Set(['svg', 'math']);
/** Elements the tree builder keeps in its list of active formatting elements, and clones. */
const FORMATTING = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);
const COMMENT_END = /--!?>/g;
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
const isLetter = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));

/** The index of the `>` that ends the tag whose name ends before `i`, and whether it is `/>`; undefined at the end of the text. */
function tagEnd(html: string, i: number): { end: number; selfClosing: boolean } | undefined {
  // The tokenizer's states inside a tag, as far as they decide where it ends.
  let state: 'attrs' | 'name' | 'afterName' | 'beforeValue' | 'unquoted' = 'attrs';
  for (; i < html.length; i++) {
    const c = html[i];
    if (state === 'beforeValue') {
      if (isSpace(c)) continue;
      if (c === '"' || c === "'") {
        const close = html.indexOf(c, i + 1);
        if (close < 0) return undefined;
        i = close;
        state = 'attrs';
        continue;
      }
      state = 'unquoted';
    }
    if (c === '>') return { end: i, selfClosing: state !== 'unquoted' && html[i - 1] === '/' };
    if (state === 'unquoted') {
      if (isSpace(c)) state = 'attrs';
    } else if (isSpace(c) || c === '/') state = state === 'name' ? 'afterName' : state;
    else if (c === '=' && state !== 'attrs') state = 'beforeValue';
    else state = 'name';
  }
  return undefined;
}

export interface HtmlLimits {
  /** How deep elements may nest. */
  readonly depth: number;
  /** How many formatting elements the tree builder may clone, counted generously: those still open at each tag. */
  readonly clones: number;
}

/** Which limit parsing `html` could pass: 'depth', 'clones', or undefined when neither. */
export function htmlPastLimits(html: string, limits: HtmlLimits): 'depth' | 'clones' | undefined {
  const open: string[] = [];
  let foreign = 0;
  let formatting = 0; // of the open elements
  let clones = 0;
  let i = html.indexOf('<');
  while (i >= 0 && i < html.length) {
    const next = html[i + 1];
    if (html.startsWith('<!--', i)) {
      // `<!-->` and `<!--->` end at once; `--!>` ends one too.
      COMMENT_END.lastIndex = i + 2;
      const close = COMMENT_END.exec(html);
      if (!close) return undefined;
      i = html.indexOf('<', close.index + close[0].length);
      continue;
    }
    const end = next === '/' && isLetter(html[i + 2]);
    if (!isLetter(next) && !end) {
      // `<!…>`, `<?…>`, `</…>` without a name: a comment to the next `>`; else `<` is text.
      if (next === '!' || next === '?' || next === '/') {
        const close = html.indexOf('>', i + 1);
        if (close < 0) return undefined;
        i = html.indexOf('<', close + 1);
      } else i = html.indexOf('<', i + 1);
      continue;
    }
    let n = i + (end ? 2 : 1);
    while (n < html.length && !isSpace(html[n]) && html[n] !== '/' && html[n] !== '>') n++;
    const name = html.slice(i + (end ? 2 : 1), n).toLowerCase();
    const tag = tagEnd(html, n);
    if (!tag) return undefined; // the text ends inside a tag: the parser drops it
    i = html.indexOf('<', tag.end + 1);
    // Before a tag, and the text before it, the builder may make each open formatting element again.
    clones += 2 * formatting;
    if (clones > limits.clones) return 'clones';
    if (end) {
      if (open.at(-1) === name) {
        open.pop();
        if (FOREIGN.has(name)) foreign--;
        if (FORMATTING.has(name)) formatting--;
      }
      continue;
    }
    if (VOID.has(name) || (tag.selfClosing && foreign > 0)) continue;
    // Its text holds no tags (in HTML; inside svg or math these are elements like any other).
    if (foreign === 0 && RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}`, 'gi');
      close.lastIndex = tag.end + 1;
      const at = close.exec(html)?.index;
      if (at === undefined) return open.length + 1 > limits.depth ? 'depth' : undefined;
      i = at;
    }
    if (foreign === 0 && name === 'plaintext') return open.length + 1 > limits.depth ? 'depth' : undefined;
    open.push(name);
    if (FOREIGN.has(name)) foreign++;
    if (FORMATTING.has(name)) formatting++;
    if (open.length > limits.depth) return 'depth';
  }
  return undefined;
}
