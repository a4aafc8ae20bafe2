// Worker-thread side of the parallel parse (see isolated.ts): reads and parses the entry files it
// is given and posts them back as plain data.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { entryFormat, parseEntry, toPortable, type PortableEntry } from './parse.js';

const files = workerData as readonly { abs: string; rel: string }[];
const out: [string, PortableEntry][] = [];
for (const f of files) {
  try {
    out.push([f.abs, toPortable(parseEntry(entryFormat(f.rel) ?? 'yaml', readFileSync(f.abs, 'utf8')))]);
  } catch {
    // Unreadable: left to the loader, which reports it with the file's name.
  }
}
parentPort?.postMessage(out);
