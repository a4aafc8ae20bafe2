// Answers remembered per request, for the snapshot being served. A static document's answer is a
// function of the request line and five headers; clients repeat the same requests, so the second
// time the core looks the answer up instead of routing, checking the token, negotiating and
// building headers again. Measured on the P1 benchmark's one-entry request (docs/performance.md):
// that work cost ~11 µs of CPU per request in a running server, several times what it takes in a
// tight loop. The lookup itself makes no key string (a long one cost ~2 µs to build and hash):
// the target is looked up, the headers compared. No Node imports.
//
// No token is kept: Authorization is compared as the keyed hash the token check already uses
// (auth.ts), so another token cannot hit a token's answer (docs/security.md). Only answers a valid
// request gets are kept (200 and 304, no media file): made-up tokens and malformed requests cost
// what they did and never fill the memo.
import { credentialHash } from './auth.js';
import type { CoreRequest, CoreResponse } from './core.js';
import { header } from './header.js';

/** At most this many answers… */
const MAX_ENTRIES = 1024;
/** …and this many bytes of bodies (shared with the document caches); when full, it starts over. */
const MAX_BYTES = 16 * 1024 * 1024;
/** Larger bodies are not kept: their cost is the bytes, not the bookkeeping. */
const MAX_BODY = 256 * 1024;
/**
 * Answers to queries asked once are kept apart, the latest this many. A client paging through a
 * list asks each offset once: kept with the others, each such answer (its bytes ~30 KB at 20
 * entries a page) outlived a young-generation collection and died in the old generation, and at a
 * million entries their bytes started a full GC every ~2,000 requests, which held requests up for
 * 10–30 ms (docs/performance.md). Asked again while still among the latest, an answer joins the
 * others.
 */
const RECENT = 16;

/** What an answer depends on besides the target and the snapshot. */
interface Inputs {
  readonly method: string;
  readonly accept: string | undefined;
  readonly acceptEncoding: string | undefined;
  readonly origin: string | undefined;
  readonly ifNoneMatch: string | undefined;
  /** The keyed hash of Authorization, 0 and 0 without one. */
  readonly credential: readonly [number, number];
}

interface Kept extends Inputs {
  readonly answer: CoreResponse;
}

const NO_CREDENTIAL = [0, 0] as const;

function inputsOf(req: CoreRequest): Inputs {
  const h = req.headers;
  const auth = header(h, 'authorization');
  return {
    method: req.method,
    accept: header(h, 'accept'),
    acceptEncoding: header(h, 'accept-encoding'),
    origin: header(h, 'origin'),
    ifNoneMatch: header(h, 'if-none-match'),
    credential: auth === undefined ? NO_CREDENTIAL : credentialHash(auth),
  };
}

function same(k: Inputs, i: Inputs): boolean {
  return (
    k.method === i.method &&
    k.accept === i.accept &&
    k.acceptEncoding === i.acceptEncoding &&
    k.origin === i.origin &&
    k.ifNoneMatch === i.ifNoneMatch &&
    k.credential[0] === i.credential[0] &&
    k.credential[1] === i.credential[1]
  );
}

/** The request target: the path alone when there is no query (no string made). */
const targetOf = (req: CoreRequest) => (req.query === '' ? req.path : `${req.path}?${req.query}`);

export class AnswerMemo {
  private readonly byTarget = new Map<string, Kept[]>();
  private entries = 0;
  private bytes = 0;
  /** Answers to queries asked once, by target and inputs, the newest last. */
  private readonly recent: [string, Kept][] = [];

  /** A copy of the remembered answer (adapters may add headers to theirs), and the request's inputs. */
  get(req: CoreRequest): { answer?: CoreResponse; inputs: Inputs } {
    const inputs = inputsOf(req);
    const target = targetOf(req);
    let hit: Kept | undefined;
    const kept = this.byTarget.get(target);
    if (kept) {
      for (const k of kept) {
        if (same(k, inputs)) {
          hit = k;
          break;
        }
      }
    }
    if (!hit) {
      const at = this.recent.findIndex(([t, k]) => t === target && same(k, inputs));
      if (at >= 0) {
        hit = (this.recent.splice(at, 1)[0] as [string, Kept])[1];
        this.keep(target, hit);
      }
    }
    return hit ? { answer: { ...hit.answer, headers: { ...hit.answer.headers } }, inputs } : { inputs };
  }

  /** Remembers `answer` to the request with these `inputs`, if it is one worth keeping. */
  offer(req: CoreRequest, inputs: Inputs, answer: CoreResponse): void {
    if ((answer.status !== 200 && answer.status !== 304) || answer.media || answer.delay || answer.injected) return;
    if (answer.body !== null && answer.body.length > MAX_BODY) return;
    const kept = { ...inputs, answer: { ...answer, headers: { ...answer.headers } } };
    if (req.query === '') this.keep(targetOf(req), kept);
    else if (this.recent.push([targetOf(req), kept]) > RECENT) this.recent.shift();
  }

  private keep(target: string, kept: Kept): void {
    const size = kept.answer.body === null ? 0 : kept.answer.body.length;
    if (this.entries >= MAX_ENTRIES || this.bytes + size > MAX_BYTES) {
      this.byTarget.clear();
      this.entries = 0;
      this.bytes = 0;
    }
    let list = this.byTarget.get(target);
    if (!list) this.byTarget.set(target, (list = []));
    list.push(kept);
    this.entries++;
    this.bytes += size;
  }
}
