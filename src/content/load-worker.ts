// Worker-thread side of loadContentIsolated(): parses the entry files on two threads (this one
// and a parse worker), loads the tree with them, and posts the result back.
import { availableParallelism } from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { layoutTree, listFiles, type FileInfo } from './files.js';
import { IssueList } from './issues.js';
import { loadContent } from './load.js';
import { entryFormat, fromPortable, parseEntry, type ParsedEntry, type PortableEntry } from './parse.js';
import { readFileSync } from 'node:fs';

/** Below this many entry files a second thread costs more (start-up, copying) than it saves. */
const PARALLEL_MIN = 1000;

const { root, drafts } = workerData as { root: string; drafts: boolean };

/** Parses the entry files, half of them on a second thread; an empty map when not worth it. */
async function parseInParallel(): Promise<Map<string, ParsedEntry>> {
  const parsed = new Map<string, ParsedEntry>();
  if (availableParallelism() < 2) return parsed;
  const files: FileInfo[] = [];
  for (const p of layoutTree(await listFiles(root).catch(() => []), new IssueList())) {
    for (const c of p.collections) files.push(...c.entries);
  }
  if (files.length < PARALLEL_MIN) return parsed;
  const half = files.length >> 1;
  const theirs = files.slice(half).map((f) => ({ abs: f.abs, rel: f.rel }));
  const other = new Promise<[string, PortableEntry][]>((resolve, reject) => {
    const w = new Worker(new URL('./parse-worker.js', import.meta.url), { workerData: theirs });
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', () => resolve([])); // no message: the loader parses those files itself
  });
  for (const f of files.slice(0, half)) {
    try {
      parsed.set(f.abs, parseEntry(entryFormat(f.rel) ?? 'yaml', readFileSync(f.abs, 'utf8')));
    } catch {
      // Unreadable: left to the loader, which reports it with the file's name.
    }
  }
  for (const [abs, p] of await other.catch(() => [])) parsed.set(abs, fromPortable(p));
  return parsed;
}

let last = 0;
const result = await loadContent(root, {
  drafts,
  parsed: await parseInParallel(),
  onProgress: (done, total) => {
    // A message per file would cost more than it tells: at most one every 50 ms.
    const now = Date.now();
    if (now - last < 50 && done < total) return;
    last = now;
    parentPort?.postMessage({ kind: 'progress', done, total });
  },
});
parentPort?.postMessage({ kind: 'result', result });
