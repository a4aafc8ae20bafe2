// The markers of an unresolved git merge conflict (`<<<<<<< HEAD`, `=======`, `>>>>>>> branch`):
// in YAML they broke the file with a message about a missing ':', and in a Markdown body both
// sides were published in silence (found from outside). Markers shown in a fenced code block
// (a post about git) are text.
import type { ParseProblem } from './parse.js';

const OPEN = /^<{7}(?:[ \t]|$)/;
const MIDDLE = /^={7}[ \t]*$/;
const CLOSE = /^>{7}(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The problem, on the line of the first `<<<<<<<`, when the text holds a whole conflict outside code fences. */
export function conflictMarkers(text: string): ParseProblem | undefined {
  if (!text.includes('<<<<<<<')) return undefined;
  const lines = text.split('\n');
  let fence: string | undefined;
  let open: number | undefined;
  let middle = false;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    const f = FENCE.exec(line)?.[1];
    if (f && (fence === undefined || (f[0] === fence[0] && f.length >= fence.length))) {
      fence = fence === undefined ? f : undefined;
      continue;
    }
    if (fence !== undefined) continue;
    if (OPEN.test(line)) {
      open ??= i;
      middle = false;
    } else if (open !== undefined && MIDDLE.test(line)) middle = true;
    else if (open !== undefined && middle && CLOSE.test(line)) {
      return {
        line: open + 1,
        message: `holds an unresolved git merge conflict (<<<<<<< on line ${open + 1}, >>>>>>> on line ${i + 1}): keep the side you want, and remove the marker lines`,
      };
    }
  }
  return undefined;
}
