// Worker-thread side of writeDist's parallel document writing (see TreeWriter.documentsInWorkers):
// writes each document with its .gz and .br siblings (those `siblings` asks for), compressing synchronously — no stream
// object and no thread-pool hop per document, which for 10,000 small documents cost more than
// the compression itself.
import { writeFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
import { brotliOptions, GZIP_LEVEL, type Siblings } from './dist.js';

const { root, quality, siblings, jobs } = workerData as {
  root: string;
  quality: number | undefined;
  siblings: Siblings;
  jobs: readonly { rel: string; text: string }[];
};
let files = 0;
let bytes = 0;
let documents = 0;
for (const { rel, text } of jobs) {
  const abs = resolve(root, rel);
  if (!abs.startsWith(root + sep)) throw new Error(`refusing to write outside the output directory: ${rel}`);
  const buf = Buffer.from(text, 'utf8');
  writeFileSync(abs, buf);
  files++;
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
  if (++documents % 100 === 0) parentPort?.postMessage({ kind: 'progress', files, bytes });
}
parentPort?.postMessage({ kind: 'progress', files, bytes });
