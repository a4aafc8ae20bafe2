// Reading one content file's text, the same way everywhere (the loader and its worker threads):
// only a regular file (reading a FIFO or a device waits forever or never ends) at the place the
// listing saw it (open-content.ts), at most LIMITS.fileBytes, and valid UTF-8 (a byte replaced by
// U+FFFD would change the content silently). A file saved as UTF-16 is said as such.
import { closeSync, readSync } from 'node:fs';
import { formatBytes, groupDigits, LIMITS } from './limits.js';
import { FileProblem } from './file-problem.js';
import { openListed, type ListedFile } from './open-content.js';

/** The file's text, a leading byte order mark removed. Throws FileProblem or a file system error. */
export function readContentText(file: ListedFile): string {
  const { fd, stats: info } = openListed(file);
  try {
    if (info.size > LIMITS.fileBytes) throw tooLarge(info.size);
    // One byte more than expected tells a file that grew past the limit since fstat.
    const bytes = Buffer.allocUnsafe(info.size + 1);
    let length = 0;
    // Done at the size fstat saw (a read that found more filled the spare byte): one read, not two.
    while (length < bytes.length) {
      const n = readSync(fd, bytes, length, bytes.length - length, null);
      length += n;
      if (n === 0 || length === info.size) break;
    }
    if (length > LIMITS.fileBytes) throw tooLarge(length);
    return decodeText(bytes.subarray(0, length));
  } finally {
    closeSync(fd);
  }
}

function tooLarge(size: number): FileProblem {
  // In bytes when rounding would show the limit itself ("4 MiB, more than … 4 MiB").
  const shown = formatBytes(size) === formatBytes(LIMITS.fileBytes) ? `${groupDigits(size)} bytes` : formatBytes(size);
  return new FileProblem(`the file is ${shown}, more than the limit of ${formatBytes(LIMITS.fileBytes)} for a content file: split it up`);
}

/**
 * The text of a content file's bytes: strict UTF-8 without a raw NUL. A file saved as UTF-16
 * (Windows Notepad's "Unicode", PowerShell's `>`) fails both checks, and either message alone
 * ("byte 1", "a NUL character") hides what happened: such a file is said as UTF-16. Looked for
 * only once a check failed, so a good file costs nothing more.
 */
function decodeText(bytes: Uint8Array): string {
  try {
    return withoutNul(decodeUtf8(bytes));
  } catch (err) {
    throw utf16Problem(bytes) ?? err;
  }
}

/** Bytes a UTF-16 file's first characters are looked for in: enough for a few lines. */
const SNIFF_BYTES = 1024;

/**
 * The problem of bytes that are UTF-16 text (or UTF-32 text with its byte order mark), if they
 * are: a byte order mark (FF FE, FE FF), or, without one, a NUL byte beside each ASCII character
 * (`t\0i\0t\0…`) in most of the first characters, always on the same side.
 */
export function utf16Problem(bytes: Uint8Array): FileProblem | undefined {
  const [b0, b1, b2, b3] = bytes;
  let encoding: string | undefined;
  if (b0 === 0xff && b1 === 0xfe) encoding = b2 === 0 && b3 === 0 ? 'UTF-32 (little-endian)' : 'UTF-16 (little-endian)';
  else if (b0 === 0xfe && b1 === 0xff) encoding = 'UTF-16 (big-endian)';
  else if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) encoding = 'UTF-32 (big-endian)';
  else {
    // Pairs of bytes with a NUL on the right (little-endian ASCII) or on the left (big-endian).
    const pairs = Math.min(bytes.length, SNIFF_BYTES) >>> 1;
    let little = 0;
    let big = 0;
    for (let i = 0; i < pairs; i++) {
      const first = bytes[2 * i] as number;
      const second = bytes[2 * i + 1] as number;
      if (second === 0 && first !== 0) little++;
      else if (first === 0 && second !== 0) big++;
    }
    if (pairs > 0 && little * 2 >= pairs && little > 4 * big) encoding = 'UTF-16 (little-endian, no byte order mark)';
    else if (pairs > 0 && big * 2 >= pairs && big > 4 * little) encoding = 'UTF-16 (big-endian, no byte order mark)';
  }
  if (encoding === undefined) return undefined;
  return new FileProblem(
    `saved as ${encoding}, not UTF-8: save the file as UTF-8 ` +
      '(Notepad: Save as, Encoding "UTF-8"; PowerShell: `| Set-Content -Encoding utf8` instead of `>`)',
    1,
  );
}

/**
 * YAML, JSON and front matter allow no raw NUL character (a JSON string writes it \u0000): one in
 * a content file is a binary file saved under a text name, or a damaged one.
 */
function withoutNul(text: string): string {
  const at = text.indexOf('\0');
  if (at === -1) return text;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  throw new FileProblem(
    'holds a NUL character, which no text format of content allows: save it as text (in YAML or JSON, write \\0 or \\u0000 in a quoted string)',
    line,
  );
}

// One decoder for every file: a decode() without `stream` starts afresh, also after an error.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 strictly; the byte order mark, if any, is dropped. */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    const bad = firstBadByte(bytes);
    let line = 1;
    for (let i = 0; i < bad; i++) if (bytes[i] === 0x0a) line++;
    throw new FileProblem(`not valid UTF-8 (byte ${bad + 1} of the file): save the file as UTF-8`, line);
  }
}

/**
 * Offset of the byte at which strict decoding fails. A streaming decode of a prefix fails exactly
 * when the prefix holds that byte (an unfinished sequence at its end is not an error), so a binary
 * search finds it; this runs only for files that are already known to be broken.
 */
function firstBadByte(bytes: Uint8Array): number {
  let good = 0; // decoding bytes[0, good) succeeds
  let bad = bytes.length; // decoding bytes[0, bad) fails (finishing the stream)
  while (bad - good > 1) {
    const mid = (good + bad) >>> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      good = mid;
    } catch {
      bad = mid;
    }
  }
  // The byte that made it fail may end a sequence its lead byte began (`Caf\xe9\n`: the newline):
  // the mistake is that lead byte (found from outside: the message named the byte after it).
  const at = bad - 1;
  for (let j = at - 1; j >= Math.max(0, at - 3); j--) {
    const b = bytes[j] as number;
    if (b < 0x80) break;
    if (b >= 0xc0) return j + (b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2) > at ? j : at;
  }
  return at;
}
