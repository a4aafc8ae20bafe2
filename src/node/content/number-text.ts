// A number written in a form that does not print back as written: YAML reads `007`, `01234`,
// `1.10`, `0x1F`, `1e3` and `+5` as the numbers 7, 1234, 1.1, 31, 1000 and 5, so a field that
// keeps text (a postal code, a version, an id) would serve what the author did not write. Found
// from the text at parse time, like the commented keys (unquoted-colour.ts); the loader says so
// where the field keeps text (entries.ts). JSON's are found by its own scan (json.ts).

// A plain number token that prints otherwise: leading zero, trailing fractional zero, hex or octal,
// exponent, sign, bare dot. A cheap test of the whole text first: most files hold none.
const ODD = String.raw`[-+]?(?:0[xXoO][\da-fA-F_]+|0\d[\d_]*(?:\.\d*)?|\d*\.\d*0|\.\d+|\d+\.|\d+(?:\.\d*)?[eE][-+]?\d+)|\+\d+(?:\.\d*)?`;
const ANY_ODD = new RegExp(`(?:^|[\\s,\\[:])(?:${ODD})[ \\t]*(?:$|[,\\]}#\\r])`, 'm');
const WHOLE_ODD = new RegExp(`^(?:${ODD})$`);

/**
 * Top-level keys (`key`, or `key\0index` for an item of a list) whose value is a number written
 * in a form that prints otherwise → the text as written. Undefined when there is none.
 */
export function rewrittenNumbers(source: string, data: Record<string, unknown>): Map<string, string> | undefined {
  if (!ANY_ODD.test(source)) return undefined;
  const written = topLevelValues(source);
  const found = new Map<string, string>();
  const check = (at: string, value: unknown, text: string) => {
    if (typeof value === 'number' && WHOLE_ODD.test(text) && String(value) !== text) found.set(at, text);
  };
  for (const [key, value] of Object.entries(data)) {
    const line = written.get(key);
    if (line === undefined) continue;
    if (!Array.isArray(value)) {
      check(key, value, line.text);
      continue;
    }
    const items =
      line.text === '' ? line.items : line.text.startsWith('[') && line.text.endsWith(']') ? line.text.slice(1, -1).split(',') : [];
    if (items.length !== value.length) continue;
    items.forEach((item, i) => {
      check(`${key}\0${i}`, value[i], item.trim());
    });
  }
  return found.size > 0 ? found : undefined;
}

/**
 * Each top-level key's text after `key:` (no comment) and the items of
 * a block list under it (`  - 1.10`), in one pass over the lines: a search per key would read the
 * file once per key (40,000 keys: 25 s).
 */
function topLevelValues(source: string): Map<string, { text: string; items: string[] }> {
  const values = new Map<string, { text: string; items: string[] }>();
  let last: { text: string; items: string[] } | undefined;
  for (const raw of source.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const start = line.length - line.trimStart().length;
    if (last && line[start] === '-' && (line[start + 1] === ' ' || line[start + 1] === '\t')) {
      last.items.push(withoutComment(line.slice(start + 1)).trim());
      continue;
    }
    last = undefined;
    const key = yamlKey(line);
    if (!key) continue;
    const text = withoutComment(line.slice(key.end)).trim();
    last = { text, items: [] };
    if (!values.has(key.name)) values.set(key.name, last);
  }
  return values;
}

/** `key:` at the start of a line (unquoted or quoted), and where its value starts. */
function yamlKey(line: string): { name: string; end: number } | undefined {
  const first = line[0];
  if (first === undefined || first === ' ' || first === '\t' || first === '#' || first === '-') return undefined;
  const quote = first === '"' || first === "'" ? first : undefined;
  const close = quote ? line.indexOf(quote, 1) : -1;
  const colon = line.indexOf(':', quote ? close + 1 : 0);
  if (colon < 0 || (quote && close < 0)) return undefined;
  const after = line[colon + 1];
  if (after !== undefined && after !== ' ' && after !== '\t') return undefined;
  const name = quote ? line.slice(1, close) : line.slice(0, colon).trimEnd();
  return { name, end: colon + 1 };
}

/** The text before a YAML comment (`#` at the start or after a blank), found in one pass. */
function withoutComment(text: string): string {
  const at = text.search(/(?:^|[ \t])#/);
  return at < 0 ? text : text.slice(0, at);
}
