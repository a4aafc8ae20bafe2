// buildOutputIsolated(): the compiled load process (lib/ is compiled by test/global-setup.ts) loads,
// builds and writes in its own process, and reports the same events as a build in this thread —
// content errors with their file, line and field included.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { buildOutputIsolated as BuildIsolated } from '../../src/node/load-path.js';
import { buildOutput, type BuildEvent, type BuildOptions } from '../../src/node/output/build-output.js';
import { writeTree } from '../content/helpers.js';
import { listFiles } from '../snapshot/fixture.js';

const compiled = (): Promise<{ buildOutputIsolated: typeof BuildIsolated }> => import(pathToFileURL(resolve('lib/node/load-path.js')).href);
const always = { inThreadUpTo: { files: 0, bytes: 0 } }; // limits of zero: the load process even for a small tree

const work = mkdtempSync(join(tmpdir(), 'cqa-build-isolated-'));
afterAll(() => rm(work, { recursive: true, force: true }));

const digests = (dir: string) =>
  new Map(
    listFiles(dir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );
const options = (out: string, more: Partial<BuildOptions> = {}): BuildOptions => ({
  drafts: false,
  baseUrl: '',
  out,
  precompress: 'none',
  includePrivate: true,
  ...more,
});
/** Every event but progress (how often that comes depends on timing). */
const record = (into: BuildEvent[]) => (e: BuildEvent) => void (e.kind !== 'progress' && into.push(e));

describe('buildOutputIsolated', () => {
  it('builds the sample in the load process: the same events and the same bytes as in this thread', async () => {
    const { buildOutputIsolated } = await compiled();
    const inWorker: BuildEvent[] = [];
    const here: BuildEvent[] = [];
    await buildOutputIsolated(
      'content',
      options(join(work, 'worker'), { precompress: 'gzip', snapshotFile: join(work, 'w.json') }),
      record(inWorker),
      always,
    );
    await buildOutput('content', options(join(work, 'here'), { precompress: 'gzip', snapshotFile: join(work, 'h.json') }), record(here));
    expect(inWorker.map((e) => e.kind)).toEqual(['loaded', 'snapshot', 'dist']);
    const withoutFile = (events: BuildEvent[]) => events.map((e) => (e.kind === 'snapshot' ? { ...e, file: '' } : e));
    expect(withoutFile(inWorker)).toEqual(withoutFile(here));
    expect(digests(join(work, 'worker'))).toEqual(digests(join(work, 'here')));
    expect(readFileSync(join(work, 'w.json'), 'utf8')).toBe(readFileSync(join(work, 'h.json'), 'utf8'));
  });

  it('reports content errors from the load process with file, line and field, and writes nothing', async () => {
    const { buildOutputIsolated } = await compiled();
    const root = writeTree({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/posts/_collection.yaml': 'fields:\n  price: number\n',
      'p/posts/a.yaml': 'price: cheap\n',
    });
    const events: BuildEvent[] = [];
    await buildOutputIsolated(root, options(join(work, 'bad')), record(events), always);
    expect(events).toEqual([
      {
        kind: 'loaded',
        issues: [expect.objectContaining({ file: 'p/posts/a.yaml', line: 1, field: 'price' })],
        warnings: [],
        needToken: [],
        leftOut: [],
      },
    ]);
    expect(listFiles(work).some((f) => f.startsWith('bad'))).toBe(false);
  });

  it('stops before writing when a project needs a token and includePrivate is not set', async () => {
    const { buildOutputIsolated } = await compiled();
    const events: BuildEvent[] = [];
    await buildOutputIsolated('content', options(join(work, 'private'), { includePrivate: false }), record(events), always);
    expect(events).toEqual([expect.objectContaining({ kind: 'loaded', issues: [], needToken: expect.arrayContaining(['demo']) })]);
    expect(listFiles(work).some((f) => f.startsWith('private'))).toBe(false);
  });
});
