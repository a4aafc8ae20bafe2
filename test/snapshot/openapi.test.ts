import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { fieldSchema } from '../../src/core/describe/openapi-fields.js';
import { openapiJson } from '../../src/core/describe/openapi.js';
import { getEntryId, listEntriesId } from '../../src/core/describe/openapi-names.js';
import { field, fixtureModel, HIDDEN_VALUE, mediaFiles, TOKEN_SHA } from './fixture.js';

const { dir, media } = mediaFiles();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const model = fixtureModel(media);
const doc = JSON.parse(createSnapshot(model, { baseUrl: 'https://cdn.test' }).openapiOf(['demo']));

describe('openapi', () => {
  it('is OpenAPI 3.1 with the base URL as server and a bearer scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://cdn.test' }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(JSON.parse(openapiJson(model, '')).servers).toEqual([{ url: '/' }]);
  });

  it('has every operation of the API', () => {
    expect(Object.keys(doc.paths)).toEqual([
      '/api/demo',
      '/api/demo/authors',
      '/api/demo/authors/{content_id}',
      '/api/demo/posts',
      '/api/demo/posts/{content_id}',
      '/api/demo/project-media',
      '/api/demo/project-media/{media_id}',
      '/media/demo/{media_id}',
      '/healthz',
      '/openapi.json',
    ]);
    const ids = Object.values(doc.paths).map((p) => (p as { get: { operationId: string } }).get.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/demo'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/healthz'].get.security).toEqual([]);
  });

  it('documents every query parameter on lists and the entry ones on a single entry', () => {
    const names = (ps: { $ref?: string; name?: string }[]) => ps.map((p) => p.name ?? p.$ref?.split('/').pop());
    expect(names(doc.paths['/api/demo/posts'].get.parameters)).toEqual([
      'where',
      'whereRelation',
      'sort',
      'limit',
      'offset',
      'first',
      'count',
      'state',
      'locale',
      'timestamps',
      'fields',
      'exclude',
    ]);
    expect(names(doc.paths['/api/demo/posts/{content_id}'].get.parameters)).toEqual([
      'content_id',
      'state',
      'timestamps',
      'fields',
      'exclude',
    ]);
    expect(doc.components.parameters.where).toMatchObject({ in: 'query', style: 'deepObject', explode: true });
    for (const p of Object.values(doc.components.parameters)) expect((p as { description: string }).description).toBeTruthy();
  });

  it('answers 200/304/400/401/403/404/406 with RFC 9457 problems', () => {
    const r = doc.paths['/api/demo/posts'].get.responses;
    expect(Object.keys(r)).toEqual(['200', '304', '400', '401', '403', '404', '406']);
    expect(doc.components.responses.BadRequest.content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/Problem',
    });
    expect(doc.components.schemas.Problem.required).toEqual(['type', 'title', 'status', 'code', 'detail']);
    expect(Object.keys(doc.components.schemas.Problem.properties)).toEqual(['type', 'title', 'status', 'code', 'detail', 'param']);
  });

  it('has an entry schema per collection from its visible fields', () => {
    const posts = doc.components.schemas['demo.posts'];
    expect(doc.components.schemas['demo.authors']).toBeDefined();
    expect(Object.keys(posts.properties)).toEqual([
      'id',
      'locale',
      'title',
      'price',
      'published',
      'day',
      'at',
      'tags',
      'cover',
      'author',
      'meta',
      'body',
      'created_at',
      'updated_at',
      'published_at',
    ]);
    const p = posts.properties;
    expect(p.title).toEqual({ type: 'string' });
    expect(p.price).toEqual({ anyOf: [{ type: 'number' }, { type: 'null' }] });
    expect(p.published.anyOf[0]).toEqual({ type: 'boolean' });
    expect(p.day.anyOf[0]).toEqual({ type: 'string', format: 'date' });
    expect(p.at.anyOf[0]).toEqual({ type: 'string', format: 'date-time' });
    expect(p.tags).toEqual({ type: 'array', items: { type: 'string', enum: ['news', 'tech', 'life'] } });
    expect(p.cover.anyOf[0]).toEqual({ $ref: '#/components/schemas/Media' });
    expect(p.author.anyOf[0]).toEqual({ $ref: '#/components/schemas/demo.authors.shallow' });
    expect(p.meta).toEqual({});
    expect(p.locale).toEqual({ type: 'string', enum: ['en', 'de'] });
    // Embedded entries keep their own relations as ids.
    expect(doc.components.schemas['demo.authors.shallow'].properties.friend.anyOf[0].type).toBe('string');
    const list = doc.paths['/api/demo/posts'].get.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(list)).toContain('#/components/schemas/demo.posts.list"');
    expect(doc.components.schemas.Media.required).toContain('full_url');
  });

  it('leaves out hidden fields, tokens and drafts, and is deterministic', () => {
    const text = openapiJson(model, 'https://cdn.test');
    expect(text).not.toContain('secret');
    expect(text).not.toContain(HIDDEN_VALUE);
    expect(text).not.toContain(TOKEN_SHA);
    expect(openapiJson(fixtureModel(media), 'https://cdn.test')).toBe(text);
  });

  it('keeps a field named __proto__ as a plain property', () => {
    const m = fixtureModel(media);
    const authors = m.projects[0]!.collections[0]!;
    const weird = { projects: [{ ...m.projects[0]!, collections: [{ ...authors, fields: [field('__proto__', 'text')] }] }] };
    expect(openapiJson(weird, '')).toContain('"__proto__":{"anyOf"');
  });

  it('maps multiple and required fields', () => {
    expect(fieldSchema(field('n', 'number', { multiple: true }), 'p')).toEqual({ type: 'array', items: { type: 'number' } });
    expect(fieldSchema(field('n', 'number', { required: true }), 'p')).toEqual({ type: 'number' });
    expect(fieldSchema(field('r', 'relation', { collection: 'c', multiple: true }), 'p')).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/p.c.shallow' },
    });
  });
});

describe('openapi required fields', () => {
  // Every visible field is in every cqa answer (null or [] when empty): all are required keys, and
  // only the schema's required fields are non-null. fields=/exclude= are described as narrowing.
  it('requires every visible field, top level and embedded; nullable unless required', () => {
    expect(doc.components.schemas['demo.posts'].required).toEqual([
      'id',
      'locale',
      'title',
      'price',
      'published',
      'day',
      'at',
      'tags',
      'cover',
      'author',
      'meta',
      'body',
    ]);
    expect(doc.components.schemas['demo.authors.shallow'].required).toEqual(['id', 'locale', 'name', 'friend']);
    expect(doc.components.schemas['demo.authors'].properties.name).toEqual({ type: 'string' });
    expect(doc.components.parameters.fields.description).toMatch(/fewer keys than its schema requires/);
    expect(doc.components.schemas['demo.posts'].description).toMatch(/fields= or exclude= narrow/);
  });

  it('keeps a required single relation nullable: its target may be a draft', () => {
    expect(fieldSchema(field('r', 'relation', { collection: 'c', required: true }), 'p')).toEqual({
      anyOf: [{ $ref: '#/components/schemas/p.c.shallow' }, { type: 'null' }],
    });
  });
});

describe('openapi operationIds', () => {
  const ids = (text: string) =>
    Object.values(JSON.parse(text).paths as Record<string, { get: { operationId: string } }>).map((p) => p.get.operationId);

  it('are a camelCase verb and noun, the collection singular for one entry', () => {
    expect(ids(openapiJson(model, ''))).toEqual([
      'getProject',
      'listAuthors',
      'getAuthor',
      'listPosts',
      'getPost',
      'listMedia',
      'getMediaItem',
      'getMediaFile',
      'getHealth',
      'getOpenApi',
    ]);
    expect([
      listEntriesId('blog-posts'),
      getEntryId('blog-posts'),
      getEntryId('categories'),
      getEntryId('boxes'),
      getEntryId('news'),
      getEntryId('status'),
    ]).toEqual(['listBlogPosts', 'getBlogPost', 'getCategory', 'getBox', 'getNews', 'getStatus']);
  });

  it('step aside for the fixed names: a collection `media` or `projects`', () => {
    expect([listEntriesId('media'), getEntryId('projects')]).toEqual(['listMediaEntries', 'getProjectEntry']);
  });

  it('get the project after the verb where two projects of one document share them, numbers as a last resort', () => {
    const demo = model.projects[0]!;
    const two = { projects: [demo, { ...demo, id: 'shop', collections: [demo.collections[1]!] }] };
    expect(ids(openapiJson(two, ''))).toEqual([
      'getDemoProject',
      'listAuthors',
      'getAuthor',
      'listDemoPosts',
      'getDemoPost',
      'listDemoMedia',
      'getDemoMediaItem',
      'getDemoMediaFile',
      'getShopProject',
      'listShopPosts',
      'getShopPost',
      'listShopMedia',
      'getShopMediaItem',
      'getShopMediaFile',
      'getHealth',
      'getOpenApi',
    ]);
    const posts = demo.collections[1]!;
    const twins = { projects: [{ ...demo, collections: [posts, { ...posts, slug: 'posts_' }] }] };
    expect(ids(openapiJson(twins, '')).slice(1, 5)).toEqual(['listPosts', 'getPost', 'listPosts2', 'getPost2']);
  });
});
