// Text from content files (file names, keys, values) or from the network on its way to a
// terminal. A terminal runs the control sequences it is sent: `ESC ] 0 ;` sets the window title,
// `ESC [ 2 J` clears the screen, OSC 52 writes the clipboard, and bidi controls reorder what is
// shown. Each such character is written as a visible \u escape instead, so the text still names
// the file but cannot act on the terminal.

/** C0 controls, DEL, C1 controls, and the characters that change the direction or the lines of text. */
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, but for text of several lines: newline and tab are kept. */
const UNPRINTABLE_BUT_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

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
