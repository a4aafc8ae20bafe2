import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { ContentModel } from '../../src/core/model/model.js';
import { loadContent } from '../../src/node/content/load.js';

const SAMPLE = fileURLToPath(new URL('../../content', import.meta.url));

const model: ContentModel = {
  projects: [
    {
      id: 'p',
      name: 'P',
      description: null,
      default_locale: 'en',
      locales: ['en'],
      public: true,
      tokens: [],
      media: [
        {
          id: 'a b.png',
          file_name: 'a b.png',
          mime_type: 'image/png',
          size: 3,
          width: 1,
          height: 1,
          caption: null,
          alt: null,
          source: '/x',
        },
      ],
      collections: [
        {
          slug: 'authors',
          name: 'Authors',
          body_field: 'body',
          sort: [],
          fields: [{ name: 'name', type: 'text', required: false, multiple: false, hidden: false }],
          entries: [
            {
              id: 'ann',
              locale: 'en',
              draft: false,
              created_at: 't',
              updated_at: 't',
              published_at: 't',
              values: { name: 'Ann' },
              file: 'x',
            },
          ],
        },
        {
          slug: 'posts',
          name: 'Posts',
          body_field: 'body',
          sort: [],
          fields: [
            { name: 'title', type: 'text', required: false, multiple: false, hidden: false },
            { name: 'secret', type: 'text', required: false, multiple: false, hidden: true },
            { name: 'author', type: 'relation', required: false, multiple: false, hidden: false, collection: 'authors' },
            { name: 'cover', type: 'media', required: false, multiple: false, hidden: false },
          ],
          entries: [
            {
              id: 'a',
              locale: 'en',
              draft: false,
              created_at: 't',
              updated_at: 't',
              published_at: 't',
              values: { title: 'A', secret: 's', author: 'ann', cover: 'a b.png' },
              file: 'x',
            },
            { id: 'b', locale: 'en', draft: true, created_at: 't', updated_at: 't', published_at: null, values: {}, file: 'y' },
          ],
        },
      ],
    },
  ],
};

describe('createSnapshot', () => {
  it('serialises entries flat with relations and media expanded and hidden fields left out', () => {
    const s = createSnapshot(model, { baseUrl: 'https://cdn.test/' });
    expect(JSON.parse(s.document('/api/p/posts/a') as string)).toEqual({
      data: {
        id: 'a',
        locale: 'en',
        title: 'A',
        author: { id: 'ann', locale: 'en', name: 'Ann' },
        cover: {
          id: 'a b.png',
          file_name: 'a b.png',
          full_url: 'https://cdn.test/media/p/a%20b.png',
          mime_type: 'image/png',
          size: 3,
          width: 1,
          height: 1,
          caption: null,
          alt: null,
        },
      },
    });
    expect(s.document('/api/p/posts/b')).toBeUndefined();
    expect(JSON.parse(s.document('/api/p/posts') as string).meta).toEqual({ total: 1, limit: null, offset: 0 });
    expect(s.paths).toContain('/api/p/project-media/a b.png');
    expect(s.paths.join()).not.toContain('secret');
  });

  it('reuses unchanged entries across snapshots but re-expands entries whose related entries changed', () => {
    const first = createSnapshot(model);
    const [authors, posts] = model.projects[0]!.collections;
    const renamed = { ...authors!.entries[0]!, values: { name: 'Anna' } };
    const next: ContentModel = {
      projects: [{ ...model.projects[0]!, collections: [{ ...authors!, entries: [renamed] }, posts!] }],
    };
    const second = createSnapshot(next);
    expect(JSON.parse(second.document('/api/p/posts/a') as string).data.author.name).toBe('Anna');
    expect(JSON.parse(first.document('/api/p/posts/a') as string).data.author.name).toBe('Ann');
    expect(second.hash).not.toBe(first.hash);
    // Same records again: same texts and the same hash.
    expect(createSnapshot(next).hash).toBe(second.hash);
    const draft = second.projects.get('p')!.collections.get('posts')!.byId.get('b')!;
    expect(draft.json).toBe(first.projects.get('p')!.collections.get('posts')!.byId.get('b')!.json);
  });

  it("reuses an entry's text while its schema and the media are equal, though made anew; a media change re-expands it", () => {
    const entry = (m: ContentModel) => createSnapshot(m).projects.get('p')!.collections.get('posts')!.byId.get('a')!;
    const first = entry(model);
    // A reload keeps the records of unchanged files but makes the project's media and schemas
    // again (new objects, new key strings): equal ones keep the texts.
    const remade = (m: ContentModel, alt: string | null = null): ContentModel => ({
      projects: m.projects.map((p) => ({
        ...p,
        media: p.media.map((x) => ({ ...x, alt })),
        collections: p.collections.map((c) => ({ ...c, fields: c.fields.map((f) => ({ ...f })) })),
      })),
    });
    expect(entry(remade(model)).offsets).toBe(first.offsets);
    const after = entry(remade(model, 'A cover'));
    expect(after.offsets).not.toBe(first.offsets);
    expect(JSON.parse(after.json).cover.alt).toBe('A cover');
    expect(entry(remade(model, 'A cover')).offsets).toBe(after.offsets);
  });

  it('makes another hash for a change only the OpenAPI description shows (made when first asked for)', async () => {
    // An elmapi project's answers do not show its schema: a field made required changes its
    // description alone, and a reload must serve the new one (watch mode keeps a snapshot of the same hash).
    const { model: sample } = await loadContent(SAMPLE, { timestamps: 'mtime' });
    const travel = sample.projects.find((p) => p.dialect === 'elmapi')!;
    const [first, ...rest] = travel.collections;
    const required = { ...first!, fields: first!.fields.map((f, i) => (i === 0 ? { ...f, required: !f.required } : f)) };
    const changed: ContentModel = { projects: sample.projects.map((p) => (p === travel ? { ...p, collections: [required, ...rest] } : p)) };
    const [before, after] = [createSnapshot(sample), createSnapshot(changed)];
    const project = (s: typeof before) => s.projects.get(travel.id)!;
    expect(project(after).dialect.projectJson(project(after))).toBe(project(before).dialect.projectJson(project(before)));
    expect(after.openapiOf([travel.id])).not.toBe(before.openapiOf([travel.id]));
    expect(after.hash).not.toBe(before.hash);
    expect(createSnapshot(changed).hash).toBe(after.hash);
  });

  it('an embedded entry lists only published ids, also when only a target two levels away turned draft', () => {
    // authors/ann → mentor bob; posts/a → author ann. Embedded in a, ann shows bob's id while bob
    // is published, and not once bob becomes a draft (ann's and a's records are the same objects).
    const [authors, posts] = model.projects[0]!.collections;
    const mentorField = {
      name: 'mentor',
      type: 'relation',
      required: false,
      multiple: false,
      hidden: false,
      collection: 'authors',
    } as const;
    const ann = { ...authors!.entries[0]!, values: { name: 'Ann', mentor: 'bob' } };
    const bob = {
      id: 'bob',
      locale: 'en',
      draft: false,
      created_at: 't',
      updated_at: 't',
      published_at: 't',
      values: { name: 'Bob' },
      file: 'z',
    };
    const withBob = (b: typeof bob): ContentModel => ({
      projects: [
        { ...model.projects[0]!, collections: [{ ...authors!, fields: [...authors!.fields, mentorField], entries: [ann, b] }, posts!] },
      ],
    });
    const embedded = (m: ContentModel) => JSON.parse(createSnapshot(m).document('/api/p/posts/a') as string).data.author;
    expect(embedded(withBob(bob))).toEqual({ id: 'ann', locale: 'en', name: 'Ann', mentor: 'bob' });
    const hidden = withBob({ ...bob, draft: true, published_at: null as unknown as string });
    expect(embedded(hidden)).toEqual({ id: 'ann', locale: 'en', name: 'Ann', mentor: null });
    expect(createSnapshot(hidden).document('/api/p/authors/ann')).not.toContain('bob');
    expect(embedded(withBob(bob)).mentor).toBe('bob');
  });

  it('serialises an entry that relates to 150,000 entries (found from outside: cqa build stopped with "Maximum call stack size exceeded")', () => {
    const [project] = model.projects;
    const [authors, posts] = project?.collections ?? [];
    if (!project || !authors || !posts) throw new Error('the model above changed');
    const many = Array.from({ length: 150_000 }, (_, i) => ({ ...(authors.entries[0] as (typeof authors.entries)[number]), id: `a${i}` }));
    const fields = [
      ...posts.fields,
      { name: 'team', type: 'relation' as const, required: false, multiple: true, hidden: false, collection: 'authors' },
    ];
    const post = { ...(posts.entries[0] as (typeof posts.entries)[number]), values: { title: 'A', team: many.map((a) => a.id) } };
    const s = createSnapshot({
      projects: [
        {
          ...project,
          collections: [
            { ...authors, entries: many },
            { ...posts, fields, entries: [post] },
          ],
        },
      ],
    });
    const team = (JSON.parse(s.document('/api/p/posts/a') as string) as { data: { team: { id: string }[] } }).data.team;
    expect(team).toHaveLength(150_000);
    expect(team.at(-1)).toEqual({ id: 'a149999', locale: 'en', name: 'Ann' });
  });
});
