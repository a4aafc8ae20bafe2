// The one way cqa loads a content tree: a small tree (SMALL_TREE, thresholds.ts) in the calling
// thread; a large one in the load process (load-process.ts), for `cqa serve`, `cqa build` and
// buildSnapshot() alike. A process rather than a worker thread because only a process gives back
// all that parsing took: a worker's V8 heap goes when it ends, but the C allocator's arenas and
// pages it used stay mapped in the caller (~110 MiB more RSS at 100,000 entries,
// docs/architecture.md#load-path-and-thresholds). The process loads and validates, then does what
// the caller needs where the memory is, and sends only that back (frames.ts over child-pipe.ts):
//   snapshot — the compact snapshot `cqa serve` holds (src/core/snapshot/compact.ts);
//   model    — the validated model, for buildSnapshot();
//   build    — `cqa build`'s whole output written there, its events sent back to be printed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { deserialize } from 'node:v8';
import type { ContentIssue, ContentModel, EntryRecord } from '../core/model/model.js';
import type { Snapshot } from '../core/model/types.js';
import { joinParts, recordMaker, type PartsOutline } from '../core/snapshot/compact.js';
import type { SnapshotOptions } from '../core/snapshot/create.js';
import { childPipe } from './content/child-pipe.js';
import { FRAME, FrameReader } from './content/frames.js';
import { readGitTimes, type TimestampSource } from './content/git-times.js';
import type { LoadOptions, LoadResult } from './content/load.js';
import { isSmallTree } from './content/tree-size.js';
import { workerScript } from './content/worker-script.js';
import type { BuildEvent, BuildOptions } from './output/build-output.js';
import { LOADER_SEMI_SPACE_MB, loaderHeapMb, loaderInitialOldSpaceMb, SMALL_TREE, type TreeLimits } from './thresholds.js';

export interface LoadPathOptions {
  /** Trees within these limits load in the calling thread (default SMALL_TREE; zeros: always the load process). */
  readonly inThreadUpTo?: TreeLimits;
}

/** What the load process is asked to do (its one argument, as JSON). */
export type LoadJob = { readonly root: string; readonly drafts: boolean; readonly timestamps?: TimestampSource } & (
  | { readonly kind: 'snapshot'; readonly snapshot: SnapshotOptions }
  | { readonly kind: 'model' }
  | { readonly kind: 'build'; readonly options: BuildOptions }
);

/** What the load process sends first (FRAME.result); then `records` in FRAME.records frames and `buffers` FRAME.bytes frames. */
export interface LoadOutcome {
  readonly issues: ContentIssue[];
  readonly warnings: ContentIssue[];
  /** snapshot: the compact snapshot's parts but its records and buffers. */
  readonly outline?: PartsOutline;
  /** model: the projects with empty collections, and how many entries each collection gets back. */
  readonly model?: ModelOutline;
  readonly records?: number;
  readonly buffers?: number;
}

export interface ModelOutline {
  readonly projects: ContentModel['projects'];
  readonly entries: readonly (readonly number[])[];
}

// Resolved when called, not at import time (see dist.ts's distWorker).
const loadProcess = () => workerScript('./load-process.js', import.meta.url);

// git's times for a load in this thread, started before the loader's modules are imported: git
// runs in processes of its own meanwhile (docs/performance.md#start-up).
const gitFirst = (root: string, options: LoadOptions): LoadOptions =>
  options.timestamps === 'mtime' || options.gitTimes ? options : { ...options, gitTimes: readGitTimes(root, options.parseCache?.gitTimes) };

const where = (options: LoadOptions) => ({
  drafts: options.drafts ?? false,
  ...(options.timestamps ? { timestamps: options.timestamps } : {}),
});

/** loadContent(), in the load process for a large tree: the validated model. */
export async function loadContentIsolated(root: string, options: LoadOptions & LoadPathOptions = {}): Promise<LoadResult> {
  const { inThreadUpTo = SMALL_TREE, ...load } = options;
  // Imported only for a small tree: the parsers' modules are otherwise the load process's.
  if (await isSmallTree(root, inThreadUpTo)) {
    const first = gitFirst(root, load);
    return (await import('./content/load.js')).loadContent(root, first);
  }
  const { outcome, records } = await runLoadProcess({ kind: 'model', root, ...where(load) }, { onProgress: load.onProgress });
  const { issues, warnings, model } = outcome;
  if (!model) throw new Error('the content loader sent no model');
  let next = 0;
  const projects = model.projects.map((p, i) => ({
    ...p,
    collections: p.collections.map((c, k) => ({ ...c, entries: records.slice(next, (next += model.entries[i]?.[k] ?? 0)) })),
  }));
  return { model: { projects }, issues, warnings };
}

export interface SnapshotResult extends Omit<LoadResult, 'model'> {
  /** Undefined when there are issues. */
  readonly snapshot?: Snapshot;
}

/**
 * The compact snapshot of the tree (what `cqa serve` holds, src/core/snapshot/compact.ts): for a
 * large tree only the kept records and the entries' texts come back from the load process, so
 * this process never holds the full records beside the texts, nor keeps what loading allocated.
 */
export async function loadSnapshotIsolated(
  root: string,
  options: LoadOptions & LoadPathOptions & { readonly baseUrl?: string } = {},
): Promise<SnapshotResult> {
  const { baseUrl, inThreadUpTo = SMALL_TREE, ...load } = options;
  const snapshot = { compact: true, ...(baseUrl !== undefined ? { baseUrl } : {}) };
  if (await isSmallTree(root, inThreadUpTo)) {
    const first = gitFirst(root, load);
    const [{ loadContent }, { createSnapshot }] = await Promise.all([import('./content/load.js'), import('../core/snapshot/create.js')]);
    const { model, issues, warnings } = await loadContent(root, first);
    return issues.length > 0 ? { issues, warnings } : { issues, warnings, snapshot: createSnapshot(model, snapshot) };
  }
  const { outcome, records, buffers } = await runLoadProcess(
    { kind: 'snapshot', root, ...where(load), snapshot },
    { onProgress: load.onProgress },
  );
  const { issues, warnings, outline } = outcome;
  if (!outline) return { issues, warnings };
  const { snapshotFromParts } = await import('../core/snapshot/create.js');
  return { issues, warnings, snapshot: snapshotFromParts(joinParts(outline, records, buffers)) };
}

/**
 * `cqa build`'s work (build-output.ts), in the load process for a large tree: `report` gets each
 * event wherever it ran, so the messages and exit codes are the same. Resolves when the build is
 * over (whatever it reported), rejects on a bug.
 */
export async function buildOutputIsolated(
  root: string,
  options: BuildOptions,
  report: (event: BuildEvent) => void,
  limits: LoadPathOptions = {},
): Promise<void> {
  if (await isSmallTree(root, limits.inThreadUpTo ?? SMALL_TREE)) {
    const { buildOutput } = await import('./output/build-output.js');
    return buildOutput(root, options, report);
  }
  await runLoadProcess(
    { kind: 'build', root, drafts: options.drafts, ...(options.timestamps ? { timestamps: options.timestamps } : {}), options },
    { onEvent: report },
  );
}

const utf8 = new TextDecoder();

/** Runs load-process.ts; settles once it has sent all it did (the system may still be taking back its memory). */
async function runLoadProcess(
  job: LoadJob,
  on: { onProgress?: ((done: number, total: number) => void) | undefined; onEvent?: (event: BuildEvent) => void },
): Promise<{ outcome: LoadOutcome; records: EntryRecord[]; buffers: Uint8Array[] }> {
  let outcome: LoadOutcome | undefined;
  let failure: Error | undefined;
  const records: EntryRecord[] = [];
  const buffers: Uint8Array[] = [];
  const ownRecord = recordMaker();
  const reader = new FrameReader((kind, payload) => {
    if (kind === FRAME.progress) {
      const { done, total } = JSON.parse(utf8.decode(payload)) as { done: number; total: number };
      on.onProgress?.(done, total);
    } else if (kind === FRAME.event) on.onEvent?.(deserialize(payload) as BuildEvent);
    else if (kind === FRAME.result) outcome = deserialize(payload) as LoadOutcome;
    else if (kind === FRAME.records) for (const r of deserialize(payload) as EntryRecord[]) records.push(ownRecord(r));
    else if (kind === FRAME.bytes) buffers.push(payload);
    else if (kind === FRAME.error) failure = revive(deserialize(payload) as NodeJS.ErrnoException);
  });
  const { ours, theirs } = await childPipe((bytes) => reader.push(bytes));
  const heapMb = loaderHeapMb();
  const flags = [
    `--max-old-space-size=${heapMb}`,
    `--initial-old-space-size=${loaderInitialOldSpaceMb()}`,
    `--max-semi-space-size=${LOADER_SEMI_SPACE_MB}`,
  ];
  const child = spawn(process.execPath, [...flags, fileURLToPath(loadProcess()), JSON.stringify(job)], {
    stdio: ['ignore', 'inherit', 'pipe', theirs],
  });
  theirs.destroy(); // the child has its own
  // Kept to say why it stopped, if it does (a fatal error's first lines; the end of anything else).
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-8192)));
  ours.on('error', () => {}); // a child that died mid-write: its exit says so
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((ok, fail) =>
    child.on('error', fail).on('close', (...end) => ok(end)),
  );
  const read = new Promise((ok) => ours.on('close', ok));
  await Promise.race([read, exited]); // a failed spawn rejects here
  await read; // every frame, also from a child that exited first
  if (failure) throw failure;
  if (!outcome || records.length !== (outcome.records ?? 0) || buffers.length !== (outcome.buffers ?? 0)) {
    const [code, signal] = await exited;
    throw stopped(code, signal, stderr, heapMb);
  }
  // All it did is here: what is left is the system taking back its memory (~50 ms for a large
  // tree), which nothing needs to wait for (docs/architecture.md#load-path-and-thresholds).
  child.stderr?.destroy();
  child.unref();
  return { outcome, records, buffers };
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
  // V8 reserves address space up front (code range, semi-spaces): under a limit such as
  // `ulimit -v` it fails there, whatever the tree (found from outside: the message quoted a `#`).
  if (/Failed to reserve virtual memory|Committing semi space failed|Fatal process (out of memory|OOM)/.test(stderr)) {
    return new Error(
      `the content loader could not reserve the memory Node needs to start: a limit on this process's memory (ulimit -v, prlimit --as) is too low; raise it`,
    );
  }
  if (/heap out of memory|Allocation failed/.test(stderr)) {
    return new Error(`the content loader ran out of memory (its heap may grow to ${heapMb} MiB): the tree is too large for this machine`);
  }
  const how = signal
    ? `killed by ${signal}${signal === 'SIGKILL' ? ', perhaps by the system for want of memory' : ''}`
    : `exit code ${code}`;
  // Node prints the source line before the error, and its version after it.
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^Node\.js v/.test(l));
  const why = lines.find((l) => /^(\w*Error\b|FATAL ERROR)/.test(l)) ?? lines.at(-1);
  return new Error(`the content loader stopped unexpectedly (${how})${why ? `: ${why}` : ''}`);
}
