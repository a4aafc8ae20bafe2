// Sending an opened file over node:http: ETag/If-None-Match, Range (src/core/http/range.ts), HEAD,
// streaming from the already-checked file handle (never reopened by path). Used for `/media/…`
// by the server and for every file of `cqa preview`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { cutWhenStalled } from './connect.js';
import type { OpenedFile } from './open-file.js';
import { contentRange, parseRange } from '../../core/http/range.js';
import { ifNoneMatch } from '../../core/http/etag.js';

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * A strong validator from the file's identity: size, modification time and inode. (A digest
 * would mean reading the whole file before answering; nginx and sirv make the same trade.)
 */
export function fileTag(file: OpenedFile): string {
  const s = file.stats;
  return `${s.size.toString(36)}-${Math.floor(s.mtimeMs).toString(36)}-${s.ino.toString(36)}`;
}

/**
 * Answers `req` with `file` (which it closes). `headers` are the answer's own (Content-Type,
 * Cache-Control, CORS, Vary, Content-Encoding of a precompressed sibling …).
 */
export function sendFile(req: IncomingMessage, res: ServerResponse, file: OpenedFile, headers: Record<string, string>): void {
  const close = () => void file.handle.close().catch(() => undefined);
  cutWhenStalled(res);
  answer(req, res, file.stats.size, fileTag(file), { ...headers, 'last-modified': file.stats.mtime.toUTCString() }, close, (start, end) =>
    // autoClose: the stream closes the handle when it ends or fails.
    pipeline(file.handle.createReadStream({ start, end }), res, () => undefined),
  );
}

/** Answers `req` with bytes held in memory (a thumbnail), validated by `tag`; the same rules as sendFile. */
export function sendBytes(
  req: IncomingMessage,
  res: ServerResponse,
  bytes: Uint8Array,
  tag: string,
  headers: Record<string, string>,
): void {
  cutWhenStalled(res);
  answer(
    req,
    res,
    bytes.length,
    tag,
    headers,
    () => undefined,
    (start, end) => res.end(bytes.subarray(start, end + 1)),
  );
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  size: number,
  tag: string,
  headers: Record<string, string>,
  close: () => void,
  body: (start: number, end: number) => void,
): void {
  const etag = `"${tag}"`;
  const out: Record<string, string> = { ...headers, etag, 'accept-ranges': 'bytes' };
  if (ifNoneMatch(one(req.headers['if-none-match']), tag)) {
    delete out['content-type'];
    close();
    res.writeHead(304, out);
    res.end();
    return;
  }
  const range = parseRange(one(req.headers.range), size, one(req.headers['if-range']), etag);
  if (range.kind === 'unsatisfiable') {
    close();
    out['content-range'] = contentRange(range, size);
    out['content-length'] = '0';
    delete out['content-type'];
    res.writeHead(416, out);
    res.end();
    return;
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  if (range.kind === 'partial') out['content-range'] = contentRange(range, size);
  out['content-length'] = String(end - start + 1);
  res.writeHead(range.kind === 'partial' ? 206 : 200, out);
  if (req.method === 'HEAD' || end < start) {
    close();
    res.end();
    return;
  }
  body(start, end);
}
