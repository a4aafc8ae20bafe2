// The incremental loader of `--watch` against a load from scratch, after any sequence of edits:
// the same model, the same issues, and a snapshot made with the kept texts equal to one made anew.
// What makes reloads fast (built entries, sorted collections, serialised texts kept from one load
// to the next: docs/architecture.md#caches) must never make them differ.
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { createContentLoader, loadContent, type LoadResult } from '../../src/node/content/load.js';
import { runs } from '../property-runs.js';
import { writeTree } from './helpers.js';

const POSTS = ['a', 'b', 'c', 'd'];
const AUTHORS = ['ann', 'bob'];

const svg = (width: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="1"></svg>`;

type Op =
  | { kind: 'post'; name: string; title: string; slug: string; author: string; cover: string; draft: boolean; locale: string }
  | { kind: 'drop-post'; name: string }
  | { kind: 'author'; name: string; label: string }
  | { kind: 'drop-author'; name: string }
  | { kind: 'schema'; withNumber: boolean; titleRequired: boolean }
  | { kind: 'media'; name: string; width: number }
  | { kind: 'drop-media'; name: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('post' as const),
    name: fc.constantFrom(...POSTS),
    title: fc.constantFrom('One', 'Two', ''),
    slug: fc.constantFrom('same', 'other', 'third'),
    author: fc.constantFrom(...AUTHORS, 'nobody'),
    cover: fc.constantFrom('x.svg', 'y.svg', 'gone.svg'),
    draft: fc.boolean(),
    locale: fc.constantFrom('en', 'de'),
  }),
  fc.record({ kind: fc.constant('drop-post' as const), name: fc.constantFrom(...POSTS) }),
  fc.record({ kind: fc.constant('author' as const), name: fc.constantFrom(...AUTHORS), label: fc.constantFrom('Ann', 'Bob', 'Ann B.') }),
  fc.record({ kind: fc.constant('drop-author' as const), name: fc.constantFrom(...AUTHORS) }),
  fc.record({ kind: fc.constant('schema' as const), withNumber: fc.boolean(), titleRequired: fc.boolean() }),
  fc.record({ kind: fc.constant('media' as const), name: fc.constantFrom('x.svg', 'y.svg'), width: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('drop-media' as const), name: fc.constantFrom('x.svg', 'y.svg') }),
);

const schema = (withNumber: boolean, titleRequired = true) =>
  `fields:\n  title: { type: text, required: ${titleRequired} }\n  slug: slug\n  author: { type: relation, collection: authors }\n  cover: media\n${withNumber ? '  n: number\n' : ''}`;

/** Carries out `o` in the tree; the path it changed, relative to the root. */
function apply(root: string, o: Op, second: number): string {
  const write = (path: string, text: string) => {
    writeFileSync(join(root, path), text);
    const t = new Date(Date.UTC(2022, 0, 1, 0, 0, second));
    utimesSync(join(root, path), t, t);
    return path;
  };
  const drop = (path: string) => {
    rmSync(join(root, path), { force: true });
    return path;
  };
  switch (o.kind) {
    case 'post':
      return write(
        `p/posts/${o.name}.md`,
        `---\ntitle: ${JSON.stringify(o.title)}\nslug: ${o.slug}\nauthor: ${o.author}\ncover: ${o.cover}\ndraft: ${o.draft}\nlocale: ${o.locale}\n---\nBody of ${o.name}\n`,
      );
    case 'drop-post':
      return drop(`p/posts/${o.name}.md`);
    case 'author':
      return write(`p/authors/${o.name}.yaml`, `name: ${o.label}\n`);
    case 'drop-author':
      return drop(`p/authors/${o.name}.yaml`);
    case 'schema':
      return write('p/posts/_collection.yaml', schema(o.withNumber, o.titleRequired));
    case 'media':
      return write(`p/media/${o.name}`, svg(o.width));
    case 'drop-media':
      return drop(`p/media/${o.name}`);
  }
}

/** Plain data, as a client would see it (the values' prototype is the loader's business). */
const plain = (r: LoadResult) => JSON.parse(JSON.stringify(r)) as unknown;

describe('the incremental loader after any edits', () => {
  it.each([
    ['with watch hints', true],
    ['listing again', false],
  ] as const)('gives the model, the issues and the snapshot of a load from scratch (%s)', async (_label, hinted) => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        const root = writeTree({
          'p/project.yaml': 'name: P\nlocales: [en, de]\n',
          'p/authors/_collection.yaml': 'fields:\n  name: text\n',
          'p/authors/ann.yaml': 'name: Ann\n',
          'p/authors/bob.yaml': 'name: Bob\n',
          'p/posts/_collection.yaml': schema(false),
          'p/posts/a.md': '---\ntitle: A\nslug: same\nauthor: ann\ncover: x.svg\n---\nBody\n',
          'p/posts/b.md': '---\ntitle: B\nslug: other\nauthor: bob\n---\n',
          'p/media/x.svg': svg(1),
          'p/media/y.svg': svg(2),
        });
        const loader = createContentLoader(root, { timestamps: 'mtime' });
        createSnapshot((await loader.load()).model);
        for (const [i, o] of ops.entries()) {
          const changed = apply(root, o, i + 1);
          const kept = await loader.load(hinted ? [changed] : undefined);
          const fresh = await loadContent(root, { timestamps: 'mtime' });
          expect(plain(kept), `after ${JSON.stringify(ops.slice(0, i + 1))}`).toEqual(plain(fresh));
          // The kept texts (the default, reuse) against texts all made anew: the hash covers every answer.
          expect(createSnapshot(kept.model).hash).toBe(createSnapshot(fresh.model, { reuse: false }).hash);
        }
      }),
      { numRuns: runs(60) },
    );
  });
});
