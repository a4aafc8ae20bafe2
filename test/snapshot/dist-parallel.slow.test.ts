// writeDist from 2,000 documents on writes them in worker threads: the tree must be byte-identical
// to the one written in this thread. (The compiled lib/ has the worker; test/global-setup.ts
// compiles it. Run from the TypeScript sources, writeDist writes in this thread.)
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { generateContent } from '../../scripts/generate-content.mjs';
import { loadContent } from '../../src/node/content/load.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { writeDist } from '../../src/node/output/dist.js';
import { listFiles } from './fixture.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-dist-parallel-'));
// ~25,000 files: on a busy disk removing them took over a minute, and a synchronous rm then also
// blocked the worker's messages to vitest ("Timeout calling onTaskUpdate").
afterAll(() => rm(work, { recursive: true, force: true }), 180_000);

const digests = (dir: string) =>
  new Map(
    listFiles(dir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );

it('writes the same bytes in worker threads as in this thread', async () => {
  generateContent({ entries: 2100, out: join(work, 'content'), seed: 5, format: 'mixed' });
  const { model, issues } = await loadContent(join(work, 'content'));
  expect(issues).toEqual([]);
  const snapshot = createSnapshot(model);
  const compiled = (await import(pathToFileURL(resolve('lib/node/output/dist.js')).href)) as { writeDist: typeof writeDist };
  const inWorkers = await compiled.writeDist(snapshot, { out: join(work, 'workers'), precompress: 'all' });
  const here = await writeDist(snapshot, { out: join(work, 'here'), precompress: 'all' });
  expect(inWorkers).toEqual(here);
  expect(here.files).toBeGreaterThan(6000);
  expect(digests(join(work, 'workers'))).toEqual(digests(join(work, 'here')));
  // One sibling only, and none (the default): the workers write exactly what this thread writes.
  for (const precompress of ['br', 'none'] as const) {
    const a = await compiled.writeDist(snapshot, { out: join(work, `workers-${precompress}`), precompress });
    const b = await writeDist(snapshot, { out: join(work, `here-${precompress}`), precompress });
    expect(a, precompress).toEqual(b);
    expect(digests(join(work, `workers-${precompress}`)), precompress).toEqual(digests(join(work, `here-${precompress}`)));
  }
  expect(listFiles(join(work, 'workers-br')).filter((f) => f.endsWith('.gz'))).toEqual([]);
  expect(listFiles(join(work, 'workers-none')).filter((f) => /\.(gz|br)$/.test(f))).toEqual([]);
}, 240_000); // ~15 s on a quiet machine; a shared, loaded one needs far more
