// Every number that makes cqa take another path or mode, with why in a line; what each one buys,
// measured: docs/benchmarks.md. The load path they choose: docs/architecture.md#load-path-and-thresholds.
import { totalmem } from 'node:os';

export interface TreeLimits {
  /** Files of any kind (entries, media, configuration). */
  readonly files: number;
  /** Bytes of the files that are parsed (Markdown, YAML, JSON); media is only probed. */
  readonly bytes: number;
}

/**
 * A tree within both limits loads in the calling thread; above either, in the load process: the
 * process costs a fixed start-up, and pays off only in the memory that parsing a large tree leaves.
 */
export const SMALL_TREE: TreeLimits = { files: 2_000, bytes: 8 * 2 ** 20 };

/** The load process's V8 heap in MiB: 60 % of the machine, at least V8's 4 GiB (a million entries need more). */
export const loaderHeapMb = (): number => Math.max(4096, Math.floor((totalmem() / 2 ** 20) * 0.6));

/**
 * The load process's young generation: V8's semi-space, in MiB (the flag applies to its threads
 * too). Node 24's V8 lets it grow to 64 MiB, where the short-lived garbage of parsing no longer
 * stays in cache: 8 MiB made a build of 10,000 entries 10–20 % faster there; on Node 20 (16 MiB by
 * default) it changed nothing measurable (docs/benchmarks.md#what-each-optimisation-buys).
 */
export const LOADER_SEMI_SPACE_MB = 8;

/**
 * The load process's old generation before its first full collection, in MiB: 512, or a tenth of
 * the machine's memory if less. Nearly all a load allocates stays until it ends (the model), and
 * V8's default (a few MiB, raised at each collection) made it mark the growing heap again and again
 * (docs/benchmarks.md#what-each-optimisation-buys).
 */
export const loaderInitialOldSpaceMb = (): number => Math.min(512, Math.floor((totalmem() / 2 ** 20) * 0.1));

/** From this many entry files on, the load process parses them on two threads (below, the second's start-up costs more than it saves). */
export const PARALLEL_PARSE_FILES = 1_000;

/** From this many documents on, `cqa build` writes them from a pool of worker threads (below, their start-up costs more). */
export const PARALLEL_DOCUMENTS = 2_000;

/** An answer body larger than this is compressed as a stream, off the main thread (smaller: at once, in it). */
export const SYNC_COMPRESS_MAX = 256 * 1024;

/** Documents longer than this are streamed in chunks: V8's longest string is 2^29 − 24 characters. */
export const STREAM_DOCUMENT_CHARS = 64 * 2 ** 20;

/** A query that kept the engine this long built large columns and orders: `cqa serve` collects garbage after it. */
export const SLOW_QUERY_MS = 250;

/**
 * An answer too large for the socket's buffers whose client has read nothing of it for this long
 * is cut (its connection closed): a client that stops reading otherwise holds it for ever. Node's
 * socket timeout lets one more period pass for a write it saw queued, so the cut comes in 15–30 s.
 */
export const STALLED_ANSWER_MS = 15_000;

/** From this size an API answer may not fit the socket's buffers, so it gets the stall guard (below it: no timer per request). */
export const STALL_GUARD_FROM_BYTES = 64 * 1024;

/** …if the heap holds at least this much (a smaller one is marked quickly: left to V8). */
export const COLLECT_FROM_HEAP_BYTES = 256 * 2 ** 20;

/** After loading, `cqa serve` shrinks a young generation grown past this (it is ~16 MiB or less for a small tree). */
export const SHRINK_YOUNG_FROM_BYTES = 48 * 2 ** 20;

/**
 * Bytes of answers `cqa serve` has made but its clients have not taken yet (not read: still in the
 * sockets' buffers, or held back by a delay), over all connections. Past it a new answer is a 503
 * with Retry-After: 40 clients that asked for a 68 MB answer each and never read made the server
 * hold 2.8 GB. A few of the largest answers fit (one of MAX_ANSWER_CHARS is 64–192 MiB); one answer
 * alone always goes out, however large.
 */
export const UNSENT_ANSWER_BYTES = 256 * 2 ** 20;

/**
 * Requests read and not answered yet (pipelined behind an answer), on one connection and over all:
 * past either, a request is answered at once with a small 503, which lets node:http's brake engage
 * again (why it did not: `Unanswered` in server/connect.ts; docs/security.md).
 */
export const MAX_WAITING_PER_CONNECTION = 128;
export const MAX_WAITING = 16_384;
