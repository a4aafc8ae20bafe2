// Worker-thread side of writeDist's parallel document writing (see TreeWriter.documentsInWorkers):
// takes batches of documents as messages and writes each with its .gz and .br siblings (those
// `siblings` asks for), compressing synchronously — no stream object and no thread-pool hop per
// document, which for 10,000 small documents cost more than the compression itself. Batches, not
// the whole tree in workerData: the writer makes the documents as they are asked for, so no thread
// holds all of them (a million entries' documents are over a GiB).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
import { brotliOptions, GZIP_LEVEL, type Siblings } from './dist-compression.js';

const { root, quality, siblings } = workerData as { root: string; quality: number | undefined; siblings: Siblings };

/** A batch to write, or null: no more (the thread ends). `folder`: make the document's folder first (it holds nothing else). */
export type DistBatch = readonly { rel: string; text: string; folder?: true }[] | null;
/** What a batch wrote (sent when it is written). */
export interface DistBatchDone {
  readonly files: number;
  readonly bytes: number;
}

function write(jobs: NonNullable<DistBatch>): DistBatchDone {
  let files = 0;
  let bytes = 0;
  for (const { rel, text, folder } of jobs) {
    const abs = resolve(root, rel);
    if (!abs.startsWith(root + sep)) throw new Error(`refusing to write outside the output directory: ${rel}`);
    if (folder) mkdirSync(dirname(abs));
    files++;
    // A string is written as it is: Node encodes it into memory it frees at once, where a Buffer
    // per document would take new pages (docs/benchmarks.md#p4-where-a-builds-time-goes).
    if (!siblings.gzip && !siblings.br) {
      writeFileSync(abs, text);
      bytes += Buffer.byteLength(text);
      continue;
    }
    const buf = Buffer.from(text, 'utf8');
    writeFileSync(abs, buf);
    bytes += buf.length;
    if (siblings.gzip) {
      const gz = zlib.gzipSync(buf, { level: GZIP_LEVEL });
      writeFileSync(`${abs}.gz`, gz);
      files++;
      bytes += gz.length;
    }
    if (siblings.br) {
      const br = zlib.brotliCompressSync(buf, brotliOptions(buf.length, quality));
      writeFileSync(`${abs}.br`, br);
      files++;
      bytes += br.length;
    }
  }
  return { files, bytes };
}

parentPort?.on('message', (batch: DistBatch) => {
  if (batch === null) parentPort?.close();
  else parentPort?.postMessage(write(batch));
});
