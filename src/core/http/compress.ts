// Encoded answers and their compressed variants. A `Doc` is one JSON answer as bytes with its
// digest tag; compressed variants are made on first demand by the platform's compressor. Static
// documents (no query) live in a bounded LRU cache per snapshot, so a hot path costs one map
// lookup; answers to queries live in a second, smaller one from their second asking (a client
// repeating a query pays for it twice; a one-off answer is not kept), compressed at the cheap
// per-request setting.
import { askedBefore } from '../query/asked-before.js';
import type { Encoding } from './accept.js';
import { digestTag } from './etag.js';

export interface Platform {
  /** SHA-256, synchronous (node:crypto in the node adapter, plain JS elsewhere). */
  sha256(data: Uint8Array): Uint8Array;
  sha256Hex(text: string): string;
  encodeText(text: string): Uint8Array;
  /** Content codings this platform can produce, most preferred first. */
  readonly encodings: readonly Encoding[];
  /**
   * Compress synchronously, or return undefined to leave it to the adapter (which then streams
   * the body through its own compressor): e.g. large bodies in node, everything with
   * CompressionStream. `transient`: the answer to a query, compressed for this request only (so
   * it must be cheap), not a static document whose variant is cached.
   */
  compress?(data: Uint8Array, encoding: Encoding, transient: boolean): Uint8Array | undefined;
  /**
   * Compress off the thread that answers, for a kept document that compress() left to the adapter:
   * its later requests get these bytes instead of a compression each (found from outside: the
   * 1.9 MB reference page took 200–290 ms of brotli per visit).
   */
  compressLater?(data: Uint8Array, encoding: Encoding): Promise<Uint8Array>;
}

/** Bodies at most this long are never compressed. */
export const COMPRESS_MIN = 1024;

export class Doc {
  readonly tag: string;
  private readonly variants: { br?: Uint8Array | null; gzip?: Uint8Array | null } = {};
  /** Bytes held by compressed variants (for the cache's budget). */
  extraBytes = 0;
  /** Kept for later requests (a cache holds it): worth compressing once off the thread (compressLater). */
  kept = false;

  constructor(
    readonly bytes: Uint8Array,
    private readonly platform: Platform,
    /** An answer to a query, made for one request (see Platform.compress). */
    private readonly transient = false,
  ) {
    this.tag = digestTag(platform.sha256(bytes));
  }

  /** The compressed bytes, or null when the platform leaves compression to the adapter. */
  variant(encoding: Encoding): Uint8Array | null {
    let v = this.variants[encoding];
    if (v === undefined) {
      v = this.platform.compress?.(this.bytes, encoding, this.transient) ?? null;
      this.variants[encoding] = v;
      if (v) this.extraBytes += v.length;
      else if (this.kept && this.platform.compressLater)
        // Until it is done (or if it fails) the adapter compresses each answer, as before.
        this.platform.compressLater(this.bytes, encoding).then(
          (bytes) => {
            this.variants[encoding] = bytes;
            this.extraBytes += bytes.length;
          },
          () => {},
        );
    }
    return v;
  }
}

export class DocCache {
  private readonly docs = new Map<string, Doc>();
  private bytes = 0;
  /** Answers to queries are kept from their second asking (see askedBefore). */
  private readonly seen = new Uint32Array(1024);

  constructor(
    private readonly platform: Platform,
    private readonly maxBytes: number,
  ) {}

  /**
   * The cached Doc for `key`, made from `text()` (a string, or its UTF-8) on a miss; undefined when
   * text() is (nothing is cached then). `transient`: compress it as an answer to a query (see
   * Platform.compress).
   */
  get(key: string, text: () => string | Uint8Array | undefined, transient = false): Doc | undefined {
    const hit = this.docs.get(key);
    if (hit) {
      // Refresh recency (Map keeps insertion order); skip when already the newest.
      this.docs.delete(key);
      this.docs.set(key, hit);
      return hit;
    }
    const t = text();
    if (t === undefined) return undefined;
    const doc = new Doc(typeof t === 'string' ? this.platform.encodeText(t) : t, this.platform, transient);
    if (doc.bytes.length * 2 <= this.maxBytes / 4 && (!transient || askedBefore(this.seen, key))) {
      doc.kept = true;
      this.docs.set(key, doc);
      this.bytes += doc.bytes.length * 2; // room for its variants
      this.evict();
    }
    return doc;
  }

  private evict(): void {
    if (this.bytes <= this.maxBytes) return;
    for (const [key, doc] of this.docs) {
      if (this.bytes <= this.maxBytes) break;
      this.docs.delete(key);
      this.bytes -= doc.bytes.length * 2;
    }
  }

  get size(): number {
    return this.docs.size;
  }
}
