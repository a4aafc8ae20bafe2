// Worker-thread side of writeDist's parallel document writing (see TreeWriter.documentsInWorkers):
// writes each document with its .gz and .br siblings, compressing synchronously — no stream
// object and no thread-pool hop per document, which for 10,000 small documents cost more than
// the compression itself.
import { writeFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
import { brotliOptions, GZIP_LEVEL } from './dist.js';

const { root, quality, jobs } = workerData as { root: string; quality: number | undefined; jobs: readonly { rel: string; text: string }[] };
let files = 0;
let bytes = 0;
for (const { rel, text } of jobs) {
  const abs = resolve(root, rel);
  if (!abs.startsWith(root + sep)) throw new Error(`refusing to write outside the output directory: ${rel}`);
  const buf = Buffer.from(text, 'utf8');
  const gz = zlib.gzipSync(buf, { level: GZIP_LEVEL });
  const br = zlib.brotliCompressSync(buf, brotliOptions(buf.length, quality));
  writeFileSync(abs, buf);
  writeFileSync(`${abs}.gz`, gz);
  writeFileSync(`${abs}.br`, br);
  files += 3;
  bytes += buf.length + gz.length + br.length;
  if (files % 300 === 0) parentPort?.postMessage({ kind: 'progress', files, bytes });
}
parentPort?.postMessage({ kind: 'progress', files, bytes });
