// A code frame: the line a problem is on, a line either side and a caret under the column, as
// `cqa check` prints it under the message. The file's text is shown escaped (control characters
// and bidi controls as \u{…}: a file must not drive the terminal) and cut to 120 characters a line.

const WIDTH = 120;

/** Whether a character would act on the terminal: C0 and C1 controls, DEL, bidi controls. */
function isControl(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** The line as shown: controls as \u{…}, a tab as `→` (YAML refuses tabs as indentation), cut to WIDTH. */
function printableLine(line: string): string {
  let shown = '';
  for (const c of line.length > WIDTH * 2 ? line.slice(0, WIDTH * 2) : line) {
    const code = c.codePointAt(0) as number;
    shown += c === '\t' ? '→' : isControl(code) ? `\\u{${code.toString(16)}}` : c;
  }
  return shown.length > WIDTH || line.length > WIDTH * 2 ? `${shown.slice(0, WIDTH)}…` : shown;
}

// A token's line (project.yaml: `token: …`, `sha256: …`, in a list, a flow mapping, without its
// colon) shows up to its key, and the line under a key with no value shows nothing: a broken
// quote there must not print the token in a terminal, a CI log or /healthz.
const SECRET_KEY = /\b(?:token|sha256)\b/i;
const SECRET_KEY_ALONE = /\b(?:token|sha256)["']?[ \t]*:[ \t]*$/i;

function withoutSecret(line: string, above: string | undefined): string {
  if (above !== undefined && SECRET_KEY_ALONE.test(above)) return line.replace(/\S.*$/, '[hidden]');
  const m = SECRET_KEY.exec(line);
  return m ? `${line.slice(0, m.index + m[0].length)} [hidden]` : line;
}

/**
 * `text` (a message about a project.yaml) cut after the first `token:` or `sha256:`: a hint that
 * quotes the line, rewritten or escaped, shows no part of the value (a parenthesis it was in is closed).
 */
export function withoutSecrets(text: string): string {
  const m = /\b(?:token|sha256)["']?[ \t]*:[ \t]*/i.exec(text);
  if (!m) return text;
  const inParens = text.lastIndexOf('(', m.index) > text.lastIndexOf(')', m.index);
  return `${text.slice(0, m.index + m[0].length)}[hidden]${inParens ? ')' : ''}`;
}

/**
 *     1 | title: Hello
 *   > 2 |   subtitle: World
 *       |   ^
 *     3 | tags: [a]
 * `row` and `col` are 0-based in `lines`; `firstLine` is the file line of `lines[0]`.
 */
export function codeFrame(lines: readonly string[], row: number, col: number, firstLine: number): string {
  const from = Math.max(0, row - 1);
  const to = Math.min(lines.length - 1, row + 1);
  const width = String(to + firstLine).length;
  const out: string[] = [];
  for (let r = from; r <= to; r++) {
    const text = printableLine(withoutSecret((lines[r] as string).replace(/\r$/, ''), lines[r - 1]?.replace(/\r$/, '')));
    if (r === to && r !== row && text.trim() === '') continue; // no empty last line after the mistake
    out.push(`  ${r === row ? '>' : ' '} ${String(r + firstLine).padStart(width)} | ${text}`.trimEnd());
    if (r === row) out.push(`    ${' '.repeat(width)} | ${' '.repeat(Math.min(col, WIDTH))}^`);
  }
  return out.join('\n');
}
