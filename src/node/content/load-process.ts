// Child-process side of loadSnapshotIsolated(): loads the tree (on two threads when it is large),
// builds the compact snapshot and writes it to the pipe on fd 3 as frames (frames.ts), then exits.
// A process rather than a worker thread: when it exits, the system takes back everything loading
// took. A worker's V8 heap goes when it ends, but the C allocator's arenas and pages it used stay
// mapped in the server (~160 MiB at 100,000 entries, more than the V8 heap the server keeps).
import { Socket } from 'node:net';
import { serialize } from 'node:v8';
import { FRAME, frameHead } from './frames.js';
import type { TimestampSource } from './git-times.js';
import { loadSplit } from './split-parser.js';
import { compactParts, splitParts } from '../../core/snapshot/compact.js';
import { createSnapshot, type SnapshotOptions } from '../../core/snapshot/create.js';

/** What isolated.ts passes as the one argument (JSON). */
export interface LoadJob {
  readonly root: string;
  readonly drafts: boolean;
  readonly timestamps?: TimestampSource;
  readonly snapshot: SnapshotOptions;
}

const RECORDS_PER_FRAME = 2048;

const { root, drafts, timestamps, snapshot } = JSON.parse(process.argv[2] as string) as LoadJob;

const pipe = new Socket({ fd: 3, readable: true, writable: true });
// The server went away (its end closed, or a write found it closed): nobody is waiting for the
// result. The server never writes; reading is how its going away is seen while nothing is sent
// (at the next turn of the event loop: parsing a batch of files synchronously holds it up).
pipe.on('error', () => process.exit(1));
pipe.on('end', () => process.exit(1));
pipe.resume();
const send = (kind: number, payload: Uint8Array) => {
  pipe.write(frameHead(kind, payload.byteLength));
  pipe.write(payload);
};

try {
  const result = await loadSplit(root, { drafts, ...(timestamps ? { timestamps } : {}) }, (done, total) => send(FRAME.progress, Buffer.from(JSON.stringify({ done, total }))));
  const { issues, warnings } = result;
  if (issues.length > 0) send(FRAME.result, serialize({ issues, warnings }));
  else {
    const { outline, records, buffers } = splitParts(compactParts(createSnapshot(result.model, snapshot)));
    send(FRAME.result, serialize({ issues, warnings, outline, records: records.length, buffers: buffers.length }));
    // In batches small enough that the server can make each its own before the next arrives.
    for (let i = 0; i < records.length; i += RECORDS_PER_FRAME) send(FRAME.records, serialize(records.slice(i, i + RECORDS_PER_FRAME)));
    for (const b of buffers) send(FRAME.bytes, b);
  }
} catch (err) {
  const { name, message, stack, code } = (err instanceof Error ? err : new Error(String(err))) as NodeJS.ErrnoException;
  send(FRAME.error, serialize({ name, message, stack, code }));
}
pipe.end(() => process.exit(0));
