// A hand-written content model full of traps for the query engine tests.
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { CollectionRecord, ContentModel, EntryRecord, FieldDef, FieldValue, MediaRecord } from '../../src/core/model/model.js';
import type { Snapshot } from '../../src/core/model/types.js';
import type { QueryContext } from '../../src/core/query/types.js';

export function field(name: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef {
  return { name, type, required: false, multiple: false, hidden: false, ...extra };
}

export function entry(id: string, values: Record<string, FieldValue>, extra: Partial<Omit<EntryRecord, 'values'>> = {}): EntryRecord {
  return {
    id,
    locale: 'en',
    draft: false,
    created_at: '2021-01-01T00:00:00.000Z',
    updated_at: '2021-01-02T00:00:00.000Z',
    published_at: extra.draft ? null : '2021-01-03T00:00:00.000Z',
    values,
    file: `${id}.md`,
    ...extra,
  };
}

const authors: CollectionRecord = {
  slug: 'authors',
  name: 'Authors',
  body_field: 'body',
  sort: [],
  fields: [field('name', 'text'), field('country', 'enumeration', { values: ['de', 'us', 'fr'] })],
  entries: [
    entry('ann', { name: 'Ann', country: 'us' }),
    entry('bob', { name: 'Bob', country: 'de' }),
    entry('cid', { name: 'Cid', country: 'fr' }, { draft: true }),
    entry('dan', { name: 'Dan', country: 'de' }, { locale: 'de' }),
  ],
};

const productFields: FieldDef[] = [
  field('title', 'text'),
  field('price', 'number'),
  field('tags', 'enumeration', { multiple: true, values: ['new', 'sale', 'eco'] }),
  field('released', 'date'),
  field('starts', 'datetime'),
  field('opens', 'time'),
  field('active', 'boolean'),
  field('author', 'relation', { collection: 'authors' }),
  field('related', 'relation', { collection: 'products', multiple: true }),
  field('cover', 'media'),
  field('gallery', 'media', { multiple: true }),
  field('meta', 'json'),
  field('scores', 'number', { multiple: true }),
  field('secret', 'text', { hidden: true }),
];

// Default order: id ascending (the entries array must already be in default order).
const products: CollectionRecord = {
  slug: 'products',
  name: 'Products',
  body_field: 'body',
  sort: [],
  fields: productFields,
  entries: [
    entry(
      'p1',
      {
        title: 'Apple',
        price: 9,
        tags: ['new'],
        released: '2021-01-31',
        starts: '2021-01-31T23:59:59.999Z',
        opens: '09:00',
        active: true,
        author: 'ann',
        related: ['p2'],
        cover: 'a.png',
        gallery: ['a.png', 'b.jpg'],
        meta: { x: 1 },
        scores: [1, 2],
        secret: 's1',
      },
      { created_at: '2021-01-31T10:00:00.000Z', published_at: '2021-01-31T12:00:00.000Z' },
    ),
    entry(
      'p2',
      {
        title: 'banana',
        price: 10,
        tags: ['sale', 'eco'],
        released: '2021-02-01',
        starts: '2021-02-01T00:00:00.000Z',
        opens: '10:30:00',
        active: false,
        author: 'bob',
        related: [],
        cover: null,
        gallery: [],
        meta: null,
        scores: [],
        secret: 's2',
      },
      { created_at: '2021-02-01T00:00:00.000Z' },
    ),
    entry(
      'p3',
      {
        title: 'Cherry pie',
        price: 200,
        tags: [],
        released: '2021-02-28',
        starts: '2021-02-28T12:00:00.000Z',
        opens: '23:59',
        active: true,
        author: 'dan',
        related: ['p1', 'p4'],
        meta: [],
        scores: [10],
      },
      { locale: 'de', created_at: '2021-02-28T23:59:59.000Z' },
    ),
    entry('p4', { title: 'date_50%', author: 'cid' }),
    entry(
      'p5',
      {
        title: '',
        price: 9.5,
        tags: ['eco'],
        released: '2020-12-31',
        starts: '2020-12-31T23:00:00.000Z',
        opens: '00:00',
        meta: '',
      },
      { draft: true },
    ),
    entry(
      'p6',
      {
        title: 'Ünïcode 😀',
        price: -1,
        tags: ['new', 'sale'],
        released: '2021-03-01',
        starts: '2021-03-01T00:00:00.000Z',
        active: false,
        author: 'ann',
        related: ['p3'],
        scores: [2, 200],
      },
      { locale: 'de' },
    ),
    entry('p7', { title: 'apple tart', price: 10, released: '2021-01-31', author: 'bob' }, { draft: true, locale: 'de' }),
    entry('p8', { title: 'Zed', price: 0, tags: ['new'], active: true, author: 'bob', related: ['p1', 'p2', 'p3'] }),
    entry('p9', { title: '😀 smile', price: 1e3, starts: '2021-01-31T00:00:00.000Z', opens: '09:00:30' }),
  ],
};

// Integer-like ids: compared as numbers (default order 1, 2, 9, 10, 100).
const items: CollectionRecord = {
  slug: 'items',
  name: 'Items',
  body_field: 'body',
  sort: [],
  fields: [field('label', 'text'), field('n', 'number')],
  entries: ['1', '2', '9', '10', '100'].map((id, k) => entry(id, { label: `L${id}`, n: 5 - k })),
};

const media: MediaRecord[] = [
  {
    id: 'a.png',
    file_name: 'a.png',
    mime_type: 'image/png',
    size: 100,
    width: 10,
    height: 20,
    caption: 'A caption',
    alt: null,
    source: '/x/a.png',
  },
  {
    id: 'b.jpg',
    file_name: 'b.jpg',
    mime_type: 'image/jpeg',
    size: 2000,
    width: 300,
    height: 200,
    caption: null,
    alt: 'bee',
    source: '/x/b.jpg',
  },
  {
    id: 'docs/c.pdf',
    file_name: 'c.pdf',
    mime_type: 'application/pdf',
    size: 50,
    width: null,
    height: null,
    caption: null,
    alt: null,
    source: '/x/c.pdf',
  },
];

export const model: ContentModel = {
  projects: [
    {
      id: 'shop',
      name: 'Shop',
      description: null,
      default_locale: 'en',
      locales: ['en', 'de'],
      public: false,
      tokens: [],
      media,
      collections: [authors, products, items],
    },
  ],
};

export const snapshot: Snapshot = createSnapshot(model);
export const project = snapshot.projects.get('shop')!;
export const productsCol = project.collections.get('products')!;
export const itemsCol = project.collections.get('items')!;

export const reader: QueryContext = { scopes: new Set(['read']), maxLimit: 1000 };
export const drafter: QueryContext = { scopes: new Set(['read', 'drafts']), maxLimit: 1000 };
