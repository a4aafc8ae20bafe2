#!/usr/bin/env node
// What `cqa pull` costs on a generated project (scripts/generate-content.mjs): a first pull, a
// second one answered with 304s (If-None-Match), and a check that the pulled tree builds to the
// same dist/api documents as the original. Run after `npm run build:ts`:
//   node scripts/bench-pull.mjs [--entries 10000]
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { buildSnapshot, startServer, writeDist } from '../lib/index.js';
import { pull } from '../lib/node/pull/pull.js';
import { generateContent, PROJECT_ID, TOKEN } from './generate-content.mjs';

const { values } = parseArgs({ options: { entries: { type: 'string', default: '10000' } } });
const entries = Number(values.entries);
const work = mkdtempSync(join(tmpdir(), 'cqa-bench-pull-'));

function files(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out.set(relative(dir, abs), readFileSync(abs));
    }
  };
  walk(dir);
  return out;
}

async function apiDocuments(content, out) {
  await writeDist(await buildSnapshot({ content }), { out });
  return files(join(out, 'api'));
}

try {
  const content = join(work, 'content');
  generateContent({ entries, out: content, quiet: true });
  const server = await startServer({ content });
  try {
    const options = { baseUrl: server.url, project: PROJECT_ID, token: TOKEN, dialect: 'cqa', out: join(work, 'pulled'), media: true };
    let t = performance.now();
    const first = await pull(options);
    const firstMs = performance.now() - t;
    t = performance.now();
    const second = await pull(options);
    const secondMs = performance.now() - t;
    const count = first.project.collections.reduce((n, c) => n + c.entries.length, 0);
    console.log(`entries: ${count}, media: ${first.project.media.length}`);
    console.log(`first pull:  ${(firstMs / 1000).toFixed(2)} s, ${first.requests} requests, ${first.files} files written`);
    console.log(
      `second pull: ${(secondMs / 1000).toFixed(2)} s, ${second.requests} requests, ${second.notModified} answered 304, ${second.mediaReused} media reused`,
    );
  } finally {
    await server.close();
  }
  const a = await apiDocuments(content, join(work, 'dist-a'));
  const b = await apiDocuments(join(work, 'pulled'), join(work, 'dist-b'));
  const differing = [...a].filter(([p, bytes]) => !b.get(p)?.equals(bytes)).map(([p]) => p);
  console.log(
    `dist/api: ${a.size} documents, ${differing.length} differ, ${b.size - a.size} extra in the pulled build${differing.length ? ` (first: ${differing[0]})` : ''}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
