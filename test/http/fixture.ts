// Shared fixtures for the HTTP tests: a hand-written content model (two private projects and a
// public one, media files in a temp folder), raw clients for a real socket and for the fetch
// handler, and the table runner.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { ContentModel, EntryRecord, FieldDef, MediaRecord, TokenRecord } from '../../src/core/model/model.js';
import { makeTempDir } from '../temp-roots.js';

export const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const tok = (name: string, token: string, scopes: TokenRecord['scopes']): TokenRecord => ({ name, sha256: sha(token), scopes });
const f = (name: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type,
  required: false,
  multiple: false,
  hidden: false,
  ...extra,
});
const T = '2024-01-01T00:00:00.000Z';

export const TOKENS = { read: 'alpha-read', drafts: 'alpha-drafts', beta: 'beta-token' };

function post(i: number, draft = false): EntryRecord {
  return {
    id: draft ? `d${i}` : `p${i}`,
    locale: i % 2 ? 'en' : 'de',
    draft,
    created_at: T,
    updated_at: T,
    published_at: draft ? null : `2024-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00.000Z`,
    values: {
      title: `Post number ${i}`,
      price: i * 1.5,
      tags: i % 3 ? ['news'] : ['tech', 'life'],
      secret: 'hidden!',
      body: `Some text for post ${i}. `.repeat(3),
    },
    file: `posts/p${i}.md`,
  };
}

export function makeModel(mediaDir: string): ContentModel {
  const media = (id: string, mime: string, content: string): MediaRecord => {
    const source = join(mediaDir, 'alpha', 'media', id);
    mkdirSync(dirname(source), { recursive: true });
    writeFileSync(source, content);
    return {
      id,
      file_name: id.split('/').pop() as string,
      mime_type: mime,
      size: Buffer.byteLength(content),
      width: null,
      height: null,
      caption: null,
      alt: null,
      source,
    };
  };
  // A file next to media/ that must never be served.
  mkdirSync(join(mediaDir, 'alpha', 'media'), { recursive: true });
  writeFileSync(join(mediaDir, 'alpha', 'secret.txt'), 'TOP SECRET');
  writeFileSync(join(mediaDir, 'alpha', 'project.yaml'), 'tokens: secret');
  const posts: EntryRecord[] = [];
  for (let i = 1; i <= 30; i++) posts.push(post(i));
  posts.push(post(1, true));
  return {
    projects: [
      {
        id: 'alpha',
        name: 'Alpha',
        description: 'private',
        default_locale: 'en',
        locales: ['en', 'de'],
        public: false,
        tokens: [tok('reader', TOKENS.read, ['read']), tok('dev', TOKENS.drafts, ['read', 'drafts'])],
        media: [media('a.png', 'image/png', 'PNGDATA-0123456789'), media('dir/b c.txt', 'text/plain', 'hello media')].sort((a, b) =>
          a.id < b.id ? -1 : 1,
        ),
        collections: [
          {
            slug: 'posts',
            name: 'Posts',
            body_field: 'body',
            sort: [],
            fields: [
              f('title', 'text'),
              f('price', 'number'),
              f('tags', 'enumeration', { multiple: true, values: ['news', 'tech', 'life'] }),
              f('secret', 'text', { hidden: true }),
              f('body', 'markdown'),
            ],
            entries: posts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
          },
        ],
      },
      {
        id: 'beta',
        name: 'Beta',
        description: null,
        default_locale: 'en',
        locales: ['en'],
        public: false,
        tokens: [tok('b', TOKENS.beta, ['read'])],
        media: [],
        collections: [
          {
            slug: 'things',
            name: 'Things',
            body_field: 'body',
            sort: [],
            fields: [f('name', 'text')],
            entries: [
              {
                id: 't1',
                locale: 'en',
                draft: false,
                created_at: T,
                updated_at: T,
                published_at: T,
                values: { name: 'x' },
                file: 't1.yaml',
              },
            ],
          },
        ],
      },
      {
        id: 'pub',
        name: 'Public',
        description: null,
        default_locale: 'en',
        locales: ['en'],
        public: true,
        tokens: [],
        media: [],
        collections: [
          {
            slug: 'notes',
            name: 'Notes',
            body_field: 'body',
            sort: [],
            fields: [f('text', 'text')],
            entries: [
              {
                id: 'n1',
                locale: 'en',
                draft: false,
                created_at: T,
                updated_at: T,
                published_at: T,
                values: { text: 'hi' },
                file: 'n1.yaml',
              },
            ],
          },
        ],
      },
    ],
  };
}

/** A temp folder, removed after the test file (test/setup.ts). */
export function tempDir(prefix = 'cqa-http-'): string {
  return makeTempDir(prefix);
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** As received (possibly compressed). */
  raw: Buffer;
  /** Decompressed. */
  body: Buffer;
  text: string;
}

export interface Req {
  method?: string;
  path: string;
  headers?: Record<string, string>;
}

export type Client = (req: Req) => Promise<RawResponse>;

function decode(headers: Record<string, string>, raw: Buffer): Buffer {
  const enc = headers['content-encoding'];
  // A part of a compressed representation (206) cannot be decoded on its own.
  if (raw.length === 0 || headers['content-range']) return raw;
  if (enc === 'gzip') return gunzipSync(raw);
  if (enc === 'br') return brotliDecompressSync(raw);
  return raw;
}

/** A client over a real socket: the path is sent as is (no normalisation). */
export function socketClient(baseUrl: string): Client {
  const u = new URL(baseUrl);
  return (req) =>
    new Promise((resolve, reject) => {
      const r = request(
        { host: u.hostname, port: u.port, method: req.method ?? 'GET', path: req.path, headers: req.headers ?? {}, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
            const raw = Buffer.concat(chunks);
            let body: Buffer;
            try {
              body = decode(headers, raw);
            } catch (err) {
              reject(err as Error);
              return;
            }
            resolve({ status: res.statusCode ?? 0, headers, raw, body, text: body.toString('utf8') });
          });
          res.on('error', reject);
        },
      );
      r.setTimeout(10_000, () => r.destroy(new Error('timeout')));
      r.on('error', reject);
      r.end();
    });
}

/** A client calling a fetch handler in process. */
export function fetchClient(handler: (r: Request) => Promise<Response>): Client {
  return async (req) => {
    const res = await handler(new Request(`http://localhost${req.path}`, { method: req.method ?? 'GET', headers: req.headers ?? {} }));
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });
    const raw = Buffer.from(await res.arrayBuffer());
    const body = decode(headers, raw);
    return { status: res.status, headers, raw, body, text: body.toString('utf8') };
  };
}
