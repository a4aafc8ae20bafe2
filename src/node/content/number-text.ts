// A number written in a form that does not print back as written: YAML (and JSON) read `007`,
// `01234`, `1.10`, `0x1F`, `1e3` and `+5` as the numbers 7, 1234, 1.1, 31, 1000 and 5, so a field
// that keeps text (a postal code, a version, an id) would serve what the author did not write.
// Found from the text at parse time, like the commented keys (unquoted-colour.ts); the loader
// says so where the field keeps text (entries.ts).

// A plain number token that prints otherwise: leading zero, trailing fractional zero, hex or octal,
// exponent, sign, bare dot. A cheap test of the whole text first: most files hold none.
const ODD = String.raw`[-+]?(?:0[xXoO][\da-fA-F_]+|0\d[\d_]*(?:\.\d*)?|\d*\.\d*0|\.\d+|\d+\.|\d+(?:\.\d*)?[eE][-+]?\d+)|\+\d+(?:\.\d*)?`;
const ANY_ODD = new RegExp(`(?:^|[\\s,\\[:])(?:${ODD})[ \\t]*(?:$|[,\\]}#\\r])`, 'm');
const WHOLE_ODD = new RegExp(`^(?:${ODD})$`);

/**
 * Top-level keys (`key`, or `key\0index` for an item of a list) whose value is a number written
 * in a form that prints otherwise → the text as written. Undefined when there is none.
 */
export function rewrittenNumbers(source: string, data: Record<string, unknown>, json: boolean): Map<string, string> | undefined {
  if (!ANY_ODD.test(source)) return undefined;
  const found = new Map<string, string>();
  const check = (at: string, value: unknown, written: string) => {
    if (typeof value === 'number' && WHOLE_ODD.test(written) && String(value) !== written) found.set(at, written);
  };
  for (const [key, value] of Object.entries(data)) {
    const list = Array.isArray(value);
    if (typeof value !== 'number' && !(list && value.some((v) => typeof v === 'number'))) continue;
    const written = writtenValue(source, key, json);
    if (written === undefined) continue;
    if (!list) {
      check(key, value, written);
      continue;
    }
    const items =
      written === '' ? blockItems(source, key) : written.startsWith('[') && written.endsWith(']') ? written.slice(1, -1).split(',') : [];
    if (items.length !== value.length) continue;
    items.forEach((item, i) => {
      check(`${key}\0${i}`, value[i], item.trim());
    });
  }
  return found.size > 0 ? found : undefined;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text after `key:` on its line (a top-level key), without a trailing comment or comma. */
function writtenValue(source: string, key: string, json: boolean): string | undefined {
  const name = json ? `[ \\t]*"${escapeRegExp(key)}"` : `(["']?)${escapeRegExp(key)}\\1`;
  // Greedy to the end of the line, then cut in code: a lazy group before `[ \t]*$` is quadratic
  // in a run of blanks.
  const m = new RegExp(`^${name}[ \\t]*:([^\\n]*)`, 'm').exec(source);
  if (!m) return undefined;
  const text = withoutComment(m[m.length - 1] as string).trim();
  return json ? text.replace(/,$/, '') : text;
}

/** The items of a block list under the top-level `key:` (`  - 1.10` lines), as written. */
function blockItems(source: string, key: string): string[] {
  const m = new RegExp(`^(["']?)${escapeRegExp(key)}\\1[ \\t]*:[^\\n]*\\n((?:[ \\t]*-[ \\t][^\\n]*(?:\\n|$))+)`, 'm').exec(source);
  if (!m) return [];
  return (m[2] as string)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => withoutComment(line.trimStart().slice(1)).trim());
}

/** The text before a YAML comment (`#` at the start or after a blank), found in one pass. */
function withoutComment(text: string): string {
  const at = text.search(/(?:^|[ \t])#/);
  return at < 0 ? text : text.slice(0, at);
}
