// `dialect:` in project.yaml and the integer media ids of the elmapi dialect (_media.yaml `id:`).
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/index.js';
import { derivedMediaNumber } from '../../src/core/dialects/media-number.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { png, project, writeTree } from './helpers.js';

const load = (tree: Record<string, string | Uint8Array>) => loadContent(writeTree(tree));

describe('dialect in project.yaml', () => {
  it('defaults to cqa (no key in the model) and accepts elmapi', async () => {
    expect(project(await load({ 'p/project.yaml': 'name: P\n' })).dialect).toBeUndefined();
    expect(project(await load({ 'p/project.yaml': 'dialect: elmapi\n' })).dialect).toBe('elmapi');
  });

  it('an unknown value is a content error with file, line and the choices', async () => {
    const r = await load({ 'p/project.yaml': 'name: P\ndialect: laravel\n' });
    expect(r.issues).toEqual([
      {
        file: 'p/project.yaml',
        line: 2,
        field: 'dialect',
        message: expect.stringMatching(/unknown dialect "laravel"; use one of cqa, elmapi/),
      },
    ]);
  });
});

describe('media ids of the elmapi dialect', () => {
  const tree = (meta: string, extra: Record<string, string | Uint8Array> = {}) => ({
    'p/project.yaml': 'dialect: elmapi\npublic: true\n',
    'p/media/a.png': png(1, 1),
    'p/media/dir/b.png': png(2, 1),
    'p/media/_media.yaml': meta,
    ...extra,
  });

  it('id: in _media.yaml, else a number derived from the path alone: adding files renumbers nothing', async () => {
    const first = await load(tree('a.png: { id: 7 }\n'));
    expect(first.issues).toEqual([]);
    const s1 = createSnapshot(first.model).projects.get('p')!;
    expect(s1.media.map((m) => JSON.parse(m.json).id)).toEqual([7, derivedMediaNumber('dir/b.png')]);
    const more = await load(tree('a.png: { id: 7 }\n', { 'p/media/0.png': png(1, 1), 'p/media/dir/a.png': png(1, 1) }));
    const s2 = createSnapshot(more.model).projects.get('p')!;
    const byPath = new Map(s2.media.map((m) => [m.record.id, JSON.parse(m.json).id]));
    expect([byPath.get('a.png'), byPath.get('dir/b.png')]).toEqual([7, derivedMediaNumber('dir/b.png')]);
    expect(derivedMediaNumber('dir/b.png')).toBeGreaterThanOrEqual(1_000_000);
  });

  it('the same id twice is an error naming both files; a bad id is an error', async () => {
    const r = await load(tree('a.png: { id: 3 }\ndir/b.png: { id: 3 }\n'));
    expect(r.issues).toEqual([
      expect.objectContaining({
        file: 'p/media/_media.yaml',
        message: expect.stringMatching(/'dir\/b.png' and 'a.png' have the same id 3/),
      }),
    ]);
    const bad = await load(tree('a.png: { id: -1 }\n'));
    expect(bad.issues).toEqual([expect.objectContaining({ line: 1, message: expect.stringMatching(/id: expected a positive integer/) })]);
  });

  it('in a cqa project, id: is an unknown media key', async () => {
    const r = await load({ 'p/project.yaml': 'name: P\n', 'p/media/a.png': png(1, 1), 'p/media/_media.yaml': 'a.png: { id: 3 }\n' });
    expect(r.issues).toEqual([expect.objectContaining({ message: "unknown key 'id'; media keys are caption, alt" })]);
  });
});
