// Text from content files (file names, keys, values) or from the network on its way to a
// terminal. A terminal runs the control sequences it is sent: `ESC ] 0 ;` sets the window title,
// `ESC [ 2 J` clears the screen, OSC 52 writes the clipboard, and bidi controls reorder what is
// shown. Each such character is written as a visible \u escape instead, so the text still names
// the file but cannot act on the terminal. So are the characters a reader cannot see or tell from
// a space (zero-width ones, a BOM, non-breaking and other wide spaces): in a message about a key
// or a value they are often the mistake itself (found from outside: `\u200bcount: not in the
// schema`, listing `count`).

/** C0 controls, DEL, C1 controls, the characters that change the direction or the lines of text, invisible ones and spaces other than ' '. */
const UNPRINTABLE = /[\x00-\x1f\x7f-\xa0\xad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u2069\u3000\ufeff]/g;
/** The same, but for text of several lines: newline and tab are kept. */
const UNPRINTABLE_BUT_LINES =
  /[\x00-\x08\x0b-\x1f\x7f-\xa0\xad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u2069\u3000\ufeff]/g;

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control and bidi character shown as a \u escape: one line, safe on a terminal. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escaped);
}

/** As printable(), but keeping newlines and tabs (for a stack trace or a list of lines). */
export function printableLines(text: string): string {
  return text.replace(UNPRINTABLE_BUT_LINES, escaped);
}

/** JSON.stringify(value) for a terminal: the same JSON value, C1 and bidi characters written as \u escapes too. */
export function printableJson(value: unknown): string {
  // Outside strings JSON has no such characters, and JSON.stringify already escapes C0 inside them.
  return JSON.stringify(value).replace(UNPRINTABLE, escaped);
}

/** `s` as one word for a shell command a user pastes: as it is when plain, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
