// Frames on the pipe from the load process to its caller (src/node/load-process.ts → load-path.ts): a kind
// byte, the payload's length (6 bytes, big-endian), the payload. The reader allocates each payload
// at its final size and copies what arrives into it, so receiving the entries' texts (~100 MiB at
// 100,000 entries) costs no more memory than keeping them: no concatenation, no second copy.

/** What a frame carries. */
export const FRAME = {
  /** `{ done, total }` as JSON (at most one every 50 ms). */
  progress: 1,
  /** The outcome without its records and buffers, v8.serialize()d (LoadOutcome in load-path.ts). */
  result: 2,
  /** A batch of the entries' records, v8.serialize()d (see splitParts in src/core/snapshot/compact.ts). */
  records: 3,
  /** One buffer of the result, raw, in the order the result lists them. */
  bytes: 4,
  /** A failure of the loader itself (not content issues), v8.serialize()d. */
  error: 5,
  /** One of `cqa build`'s events (src/node/output/build-output.ts), v8.serialize()d. */
  event: 6,
} as const;

const HEAD = 7;

/** The header to write before a payload of `length` bytes. */
export function frameHead(kind: number, length: number): Uint8Array {
  const head = Buffer.alloc(HEAD);
  head[0] = kind;
  head.writeUIntBE(length, 1, 6);
  return head;
}

/** Splits the bytes pushed into it back into frames, however the pipe cut them. */
export class FrameReader {
  private readonly head = Buffer.alloc(HEAD);
  private headUsed = 0;
  private kind = 0;
  private body: Uint8Array | undefined;
  private bodyUsed = 0;

  constructor(private readonly onFrame: (kind: number, payload: Uint8Array) => void) {}

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (!this.body) {
        const n = Math.min(HEAD - this.headUsed, chunk.length - at);
        this.head.set(chunk.subarray(at, at + n), this.headUsed);
        this.headUsed += n;
        at += n;
        if (this.headUsed < HEAD) return;
        this.headUsed = 0;
        this.kind = this.head[0] as number;
        this.body = new Uint8Array(this.head.readUIntBE(1, 6));
        this.bodyUsed = 0;
      }
      const n = Math.min(this.body.length - this.bodyUsed, chunk.length - at);
      this.body.set(chunk.subarray(at, at + n), this.bodyUsed);
      this.bodyUsed += n;
      at += n;
      if (this.bodyUsed === this.body.length) {
        const body = this.body;
        this.body = undefined;
        this.onFrame(this.kind, body);
      }
    }
  }
}
