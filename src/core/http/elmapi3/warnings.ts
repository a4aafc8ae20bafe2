// What the real v3 API silently does with a request, said out loud: each problem names the
// parameter and the fix. Served as X-Cqa-Warning headers (and in the journal/log), or as a 422 in
// Laravel's validation shape when the project is `strict: true`. No Node imports.

export interface Warning {
  /** The parameter as written (`where[price][between]`). */
  readonly param: string;
  readonly text: string;
}

export class Warnings {
  readonly list: Warning[] = [];
  add(param: string, text: string): void {
    if (this.list.length < 20 && !this.list.some((w) => w.param === param && w.text === text)) this.list.push({ param, text });
  }
}

/** Between the texts of one X-Cqa-Warning header (a comma is inside the texts). */
export const WARNING_SEPARATOR = ' | ';

/** The texts of an X-Cqa-Warning header value (an adapter that only has the header, e.g. MSW's journal). */
export function warningTexts(value: string | null | undefined): string[] {
  return value ? value.split(WARNING_SEPARATOR) : [];
}

/** A header value must be one line of visible ASCII: anything else is escaped. */
export function headerText(w: Warning): string {
  return w.text
    .replace(/[…≥≤→—]/g, (c) => ASCII[c] as string)
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The X-Cqa-Warning value of `texts` (headerText's): each cut at 400 characters, the whole at
 * 2,048, the rest counted. A warning quotes what was sent, escaped: 20 of them could make a header
 * five times the URL, which Node's fetch refuses (16 KiB) and a proxy turns into a 502 (4-8 KiB).
 * The journal keeps them whole.
 */
export function warningHeader(texts: readonly string[]): string {
  let value = '';
  let shown = 0;
  for (const text of texts) {
    const cut = text.length > 400 ? `${text.slice(0, 397)}...` : text;
    const next = shown === 0 ? cut : `${value}${WARNING_SEPARATOR}${cut}`;
    if (next.length > 2048) break;
    value = next;
    shown++;
  }
  const left = texts.length - shown;
  return left === 0 ? value : `${value}${WARNING_SEPARATOR}${left} more in the request journal and the log`;
}

/** The few non-ASCII characters the warnings themselves use, spelled in ASCII (a value's own stay escaped). */
const ASCII: Record<string, string> = { '…': '...', '≥': '>=', '≤': '<=', '→': '->', '—': '-' };

/** Laravel's ValidationException body: the first message (+ "(and N more errors)") and the errors by parameter. */
export function validationBody(list: readonly Warning[]): string {
  // No prototype: a parameter named `constructor` or `toString` is a key like any other (with
  // `{}`, `errors.constructor` was Object's and `push` threw: a 500, found by fuzzing).
  const errors: Record<string, string[]> = Object.create(null);
  for (const w of list) (errors[w.param] ??= []).push(w.text);
  const first = list[0]?.text ?? 'The given data was invalid.';
  const more = list.length - 1;
  return JSON.stringify({ message: more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first, errors });
}
