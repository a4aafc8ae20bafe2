// loadContent() in a worker thread. Parsing a large tree makes many times more garbage than the
// model it leaves (100,000 files: ~1 GiB of heap for a ~130 MiB model), and V8 keeps such a
// high-water mark as resident memory for the life of the process. A worker's heap is released when
// the worker ends, and only the model is copied back — so a long-running `cqa serve` holds what it
// serves, not what it took to read it. A small tree (see tree-size.ts) is loaded in the calling
// thread instead: there the worker's start-up would cost more than the memory it saves.
// The server's compact snapshot (loadSnapshotIsolated) is made in a child process instead, which
// gives back even what a worker leaves behind (see load-process.ts).
import { spawn } from 'node:child_process';
import { totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { deserialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { joinParts, recordMaker, type CompactParts, type PartsOutline } from '../../core/snapshot/compact.js';
import type { EntryRecord } from '../../core/model/model.js';
import type { Snapshot } from '../../core/model/types.js';
import { childPipe } from './child-pipe.js';
import { FRAME, FrameReader } from './frames.js';
import type { LoadJob } from './load-process.js';
import type { LoadOptions, LoadResult } from './load.js';
import { isSmallTree, SMALL_TREE, type TreeLimits } from './tree-size.js';
import { workerScript } from './worker-script.js';

export interface IsolatedLoadOptions extends LoadOptions {
  /** Trees within these limits load in the calling thread (default SMALL_TREE; zeros: always a worker). */
  readonly inThreadUpTo?: TreeLimits;
}

// Resolved when called, not at import time (see dist.ts's distWorker).
const loadWorker = () => workerScript('./load-worker.js', import.meta.url);
const loadProcess = () => workerScript('./load-process.js', import.meta.url);

// V8's default heap limit (4 GiB here) stopped a million entries half-way: the loader holds the
// records and the full snapshot at once. It ends after loading, so let it use up to 60 % of the
// machine's memory for that moment.
export const loaderHeapMb = () => Math.max(4096, Math.floor((totalmem() / 2 ** 20) * 0.6));

export async function loadContentIsolated(root: string, options: IsolatedLoadOptions = {}): Promise<LoadResult> {
  // A small tree loads here (imported only then: the parsers' modules are otherwise the worker's).
  const { inThreadUpTo = SMALL_TREE, ...loadOptions } = options;
  if (await isSmallTree(root, inThreadUpTo)) return import('./load.js').then((m) => m.loadContent(root, loadOptions));
  return runWorker(root, loadOptions);
}

export interface SnapshotResult extends Omit<LoadResult, 'model'> {
  /** Undefined when there are issues. */
  readonly snapshot?: Snapshot;
}

/**
 * The compact snapshot of the tree (what `cqa serve` holds, src/core/snapshot/compact.ts), built in a
 * child process: only the kept records and the entries' texts come back, so this process never
 * holds the full records beside the texts, nor keeps what loading allocated.
 */
export async function loadSnapshotIsolated(
  root: string,
  options: IsolatedLoadOptions & { readonly baseUrl?: string } = {},
): Promise<SnapshotResult> {
  const { baseUrl, inThreadUpTo = SMALL_TREE, ...load } = options;
  const snapshotOptions = { compact: true, ...(baseUrl !== undefined ? { baseUrl } : {}) };
  if (await isSmallTree(root, inThreadUpTo)) {
    const [{ loadContent }, { createSnapshot }] = await Promise.all([import('./load.js'), import('../../core/snapshot/create.js')]);
    const { model, issues, warnings } = await loadContent(root, load);
    return issues.length > 0 ? { issues, warnings } : { issues, warnings, snapshot: createSnapshot(model, snapshotOptions) };
  }
  const { parts, ...result } = await runProcess({ root, drafts: load.drafts ?? false, ...(load.timestamps ? { timestamps: load.timestamps } : {}), snapshot: snapshotOptions }, load.onProgress);
  if (!parts) return result;
  const { snapshotFromParts } = await import('../../core/snapshot/create.js');
  return { ...result, snapshot: snapshotFromParts(parts) };
}

type Message = { kind: 'progress'; done: number; total: number } | { kind: 'result'; result: LoadResult };

function runWorker(root: string, options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(loadWorker(), {
      workerData: { root, drafts: options.drafts ?? false, timestamps: options.timestamps },
      resourceLimits: { maxOldGenerationSizeMb: loaderHeapMb() },
    });
    worker.on('message', (m: Message) => {
      if (m.kind === 'progress') options.onProgress?.(m.done, m.total);
      else {
        settled = true;
        resolve(m.result);
      }
    });
    worker.on('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`the content loader stopped unexpectedly (exit code ${code})`));
    });
  });
}

/** What the load process sends first (FRAME.result); then `records` in FRAME.records frames, and `buffers` FRAME.bytes frames. */
interface Outcome extends Omit<LoadResult, 'model'> {
  readonly outline?: PartsOutline;
  readonly records?: number;
  readonly buffers?: number;
}

const utf8 = new TextDecoder();

/** Runs load-process.ts; settles once it has exited (never before: no load outlives the call). */
async function runProcess(job: LoadJob, onProgress: LoadOptions['onProgress']): Promise<Omit<LoadResult, 'model'> & { parts?: CompactParts }> {
  let outcome: Outcome | undefined;
  let failure: Error | undefined;
  const records: EntryRecord[] = [];
  const buffers: Uint8Array[] = [];
  const ownRecord = recordMaker();
  const reader = new FrameReader((kind, payload) => {
    if (kind === FRAME.progress) {
      const { done, total } = JSON.parse(utf8.decode(payload)) as { done: number; total: number };
      onProgress?.(done, total);
    } else if (kind === FRAME.result) outcome = deserialize(payload) as Outcome;
    else if (kind === FRAME.records) for (const r of deserialize(payload) as EntryRecord[]) records.push(ownRecord(r));
    else if (kind === FRAME.bytes) buffers.push(payload);
    else if (kind === FRAME.error) failure = revive(deserialize(payload) as NodeJS.ErrnoException);
  });
  const { ours, theirs } = await childPipe((bytes) => reader.push(bytes));
  const heapMb = loaderHeapMb();
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, fileURLToPath(loadProcess()), JSON.stringify(job)], {
    stdio: ['ignore', 'inherit', 'pipe', theirs],
  });
  theirs.destroy(); // the child has its own
  // Kept to say why it stopped, if it does (a fatal error's first lines; the end of anything else).
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-8192)));
  ours.on('error', () => {}); // a child that died mid-write: its exit says so
  const [[code, signal]] = await Promise.all([
    new Promise<[number | null, NodeJS.Signals | null]>((ok, fail) => child.on('error', fail).on('close', (...end) => ok(end))),
    new Promise((ok) => ours.on('close', ok)),
  ]);
  if (failure) throw failure;
  if (!outcome || records.length !== (outcome.records ?? 0) || buffers.length !== (outcome.buffers ?? 0)) throw stopped(code, signal, stderr, heapMb);
  const { outline, records: _r, buffers: _b, ...result } = outcome;
  return outline ? { ...result, parts: joinParts(outline, records, buffers) } : result;
}

/** The loader's own failure (a bug, not a content issue) as an Error of this process. */
function revive({ name, message, stack, code }: NodeJS.ErrnoException): Error {
  const err: NodeJS.ErrnoException = new Error(message);
  err.name = name;
  if (stack !== undefined) err.stack = stack;
  if (code !== undefined) err.code = code;
  return err;
}

/** Why the load process ended without a result, in words: out of memory, killed, or its last error line. */
function stopped(code: number | null, signal: NodeJS.Signals | null, stderr: string, heapMb: number): Error {
  if (/heap out of memory|Allocation failed/.test(stderr)) {
    return new Error(`the content loader ran out of memory (its heap may grow to ${heapMb} MiB): the tree is too large for this machine`);
  }
  const how = signal ? `killed by ${signal}${signal === 'SIGKILL' ? ', perhaps by the system for want of memory' : ''}` : `exit code ${code}`;
  // Node prints the source line before the error, and its version after it.
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !/^Node\.js v/.test(l));
  const why = lines.find((l) => /^(\w*Error\b|FATAL ERROR)/.test(l)) ?? lines.at(-1);
  return new Error(`the content loader stopped unexpectedly (${how})${why ? `: ${why}` : ''}`);
}
