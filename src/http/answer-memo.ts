// Answers remembered per request, for the snapshot being served. A static document's answer is a
// function of the request line and five headers; clients repeat the same requests, so the second
// time the core looks up the answer instead of routing, checking the token, negotiating and
// building headers again. Measured on the P1 benchmark's one-entry request (docs/performance.md):
// that work cost ~11 µs of CPU per request in a running server, several times what it takes in a
// tight loop. No Node imports.
//
// The key holds no token: the Authorization header enters it as the keyed hash the token check
// already uses (auth.ts), so a different token cannot hit another token's answer (docs/security.md).
// Only answers a valid request gets are kept (200 and 304, no media file): made-up tokens and
// malformed requests cost what they did and never fill the memo.
import { credentialKey } from './auth.js';
import type { CoreRequest, CoreResponse } from './core.js';

/** At most this many answers… */
const MAX_ENTRIES = 1024;
/** …and this many bytes of bodies (shared with the document caches; when full, it starts over). */
const MAX_BYTES = 16 * 1024 * 1024;
/** Larger bodies are not kept: their cost is the bytes, not the bookkeeping. */
const MAX_BODY = 256 * 1024;

function header(headers: CoreRequest['headers'], name: string): string {
  const v = headers[name];
  if (v === undefined) return '-';
  const s = Array.isArray(v) ? v.join(', ') : v;
  return `${s.length}:${s}`; // length-prefixed: no value can run into the next one
}

/** Every input of an answer that is not the snapshot: the request line and the headers the core reads. */
export function answerKey(req: CoreRequest): string {
  const h = req.headers;
  const auth = h.authorization;
  const credential = auth === undefined ? '-' : credentialKey(Array.isArray(auth) ? auth.join(', ') : auth);
  return `${req.method} ${req.path.length}:${req.path} ${req.query.length}:${req.query} ${header(h, 'accept')}${header(h, 'accept-encoding')}${header(h, 'origin')}${header(h, 'if-none-match')}${credential}`;
}

export class AnswerMemo {
  private readonly answers = new Map<string, CoreResponse>();
  private bytes = 0;

  /** A copy of the remembered answer (adapters may add headers to theirs). */
  get(key: string): CoreResponse | undefined {
    const r = this.answers.get(key);
    return r && { ...r, headers: { ...r.headers } };
  }

  /** Remembers `r` if it is an answer worth keeping. */
  offer(key: string, r: CoreResponse): void {
    if ((r.status !== 200 && r.status !== 304) || r.media || r.delay || r.injected) return;
    const size = r.body === null ? 0 : r.body.length;
    if (size > MAX_BODY) return;
    if (this.answers.size >= MAX_ENTRIES || this.bytes + size > MAX_BYTES) {
      this.answers.clear();
      this.bytes = 0;
    }
    this.answers.set(key, { ...r, headers: { ...r.headers } });
    this.bytes += size;
  }
}
