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
    const text = printableLine((lines[r] as string).replace(/\r$/, ''));
    if (r === to && r !== row && text.trim() === '') continue; // no empty last line after the mistake
    out.push(`  ${r === row ? '>' : ' '} ${String(r + firstLine).padStart(width)} | ${text}`.trimEnd());
    if (r === row) out.push(`    ${' '.repeat(width)} | ${' '.repeat(Math.min(col, WIDTH))}^`);
  }
  return out.join('\n');
}
