// A hand-written content model with media files on disk, for the dist/openapi/preview tests.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CollectionRecord, ContentModel, EntryRecord, FieldDef, MediaRecord } from '../../src/core/model/model.js';
import { makeTempDir } from '../temp-roots.js';

export const TOKEN = 'fixture-secret-token-7f3a';
export const TOKEN_SHA = createHash('sha256').update(TOKEN).digest('hex');
export const HIDDEN_VALUE = 'HIDDEN-VALUE-91c2e';
export const DRAFT_VALUE = 'DRAFT-TITLE-5d8b1';

const T = '2021-11-25T10:00:00.000Z';

export function field(name: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef {
  return { name, type, required: false, multiple: false, hidden: false, ...extra };
}

export function entry(id: string, values: EntryRecord['values'], extra: Partial<EntryRecord> = {}): EntryRecord {
  return { id, locale: 'en', draft: false, created_at: T, updated_at: T, published_at: T, values, file: `${id}.md`, ...extra };
}

/** A temp dir holding the media files (removed after the test file); returns the records pointing at them. */
export function mediaFiles(): { dir: string; media: MediaRecord[] } {
  const dir = makeTempDir('cqa-media-');
  mkdirSync(join(dir, 'photos'));
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  writeFileSync(join(dir, 'photos', 'a b.png'), png);
  writeFileSync(join(dir, 'doc.txt'), 'hello media\n');
  const media: MediaRecord[] = [
    {
      id: 'doc.txt',
      file_name: 'doc.txt',
      mime_type: 'text/plain',
      size: 12,
      width: null,
      height: null,
      caption: 'A doc',
      alt: null,
      source: join(dir, 'doc.txt'),
    },
    {
      id: 'photos/a b.png',
      file_name: 'a b.png',
      mime_type: 'image/png',
      size: png.length,
      width: 1,
      height: 1,
      caption: null,
      alt: 'dot',
      source: join(dir, 'photos', 'a b.png'),
    },
  ];
  return { dir, media };
}

export function fixtureModel(media: MediaRecord[], posts = 3): ContentModel {
  const authors: CollectionRecord = {
    slug: 'authors',
    name: 'Authors',
    body_field: 'body',
    sort: [],
    fields: [field('name', 'text', { required: true }), field('friend', 'relation', { collection: 'authors' })],
    entries: [entry('ann', { name: 'Ann', friend: 'bob' }), entry('bob', { name: 'Bob', friend: 'ann' })],
  };
  const postEntries: EntryRecord[] = [];
  for (let i = 1; i <= posts; i++) {
    postEntries.push(
      entry(`post-${i}`, {
        title: `Post ${i} — ünïcode`,
        price: i * 1.5,
        published: i % 2 === 0,
        day: '2021-11-25',
        at: T,
        tags: ['news', 'tech'],
        cover: 'photos/a b.png',
        author: 'ann',
        meta: { n: i },
        secret: HIDDEN_VALUE,
        body: `# Post ${i}\n\nText.`,
      }),
    );
  }
  postEntries.push(entry('draft-1', { title: DRAFT_VALUE, secret: HIDDEN_VALUE }, { draft: true, published_at: null }));
  const posts_: CollectionRecord = {
    slug: 'posts',
    name: 'Posts',
    body_field: 'body',
    sort: [],
    fields: [
      field('title', 'text', { required: true }),
      field('price', 'number'),
      field('published', 'boolean'),
      field('day', 'date'),
      field('at', 'datetime'),
      field('tags', 'enumeration', { values: ['news', 'tech', 'life'], multiple: true }),
      field('cover', 'media'),
      field('author', 'relation', { collection: 'authors' }),
      field('meta', 'json'),
      field('secret', 'text', { hidden: true }),
      field('body', 'markdown'),
    ],
    entries: postEntries,
  };
  return {
    projects: [
      {
        id: 'demo',
        name: 'Demo',
        description: 'Fixture',
        default_locale: 'en',
        locales: ['en', 'de'],
        public: false,
        tokens: [{ name: 'dev', sha256: TOKEN_SHA, scopes: ['read', 'drafts'] }],
        collections: [authors, posts_],
        media,
      },
    ],
  };
}

/** Every file under `dir`, relative and '/'-separated, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out.push(relative(dir, abs).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}
