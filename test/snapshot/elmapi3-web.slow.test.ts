// `cqa build --project` of an elmapi3 web of relations (docs/build.md): each entry's document embeds
// the entries it relates to, so the tree can outgrow memory; the build stops at its bound, which
// takes building up to 512 Mi characters (a slow suite: docs/development.md#tests).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { quietBuild } from './quiet-build.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-v3-web-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('cqa build --project of a web of relations', () => {
  // Found from outside: each entry's document embeds the entries it relates to, so 250 small
  // entries each related to all the others made a 3.2 GB tree, all of it held in memory (6.3 GB).
  it('stops with a message saying why, before the tree outgrows its bound; nothing is written', async () => {
    const id = '22222222-3333-4444-8555-666666666666';
    const root = join(work, 'web');
    mkdirSync(join(root, 'p', 'items'), { recursive: true });
    writeFileSync(join(root, 'p', 'project.yaml'), `id: ${id}\ndialect: elmapi3\npublic: true\n`);
    writeFileSync(
      join(root, 'p', 'items', '_collection.yaml'),
      'fields:\n  title: text\n  rel: { type: relation, collection: items, multiple: true }\n',
    );
    const all = Array.from({ length: 250 }, (_, j) => `i${j}`).join(', ');
    for (let i = 0; i < 250; i++) writeFileSync(join(root, 'p', 'items', `i${i}.yaml`), `title: T${i}\nrel: [${all}]\n`);
    const r = await quietBuild([root, '--project', id, '--out', join(work, 'web-out')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /the elmapi3 tree would hold more than 512 Mi characters of documents, because each entry's document embeds the entries it relates to/,
    );
    expect(existsSync(join(work, 'web-out'))).toBe(false);
    expect(readdirSync(work).filter((name) => name.includes('web-out'))).toEqual([]);
  }, 60_000);
});
