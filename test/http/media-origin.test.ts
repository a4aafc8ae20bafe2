// Media on the API origin (docs/security.md, "Media origin"): every answer with a media file or a
// thumbnail — cqa serve, createHandler, cqa preview of a build, and the `_headers` a static host
// reads — is a sandboxed document (CSP `default-src 'none'; sandbox`), never sniffed, and a type a
// browser could open as a document (HTML, SVG, XML, XHTML, JavaScript, PDF, unknown) is a download.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { loadContent } from '../../src/node/content/index.js';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { writeDist } from '../../src/node/output/dist.js';
import { inlineSafe } from '../../src/core/http/media-headers.js';
import { fetchClient, socketClient, type Client } from './fixture.js';
import { ACTIVE, DISGUISED, mediaTree, TRAVEL } from './media-fixture.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-media-origin-'));
const clients: Record<string, Client> = {};
let server: RunningServer;
let preview: PreviewServer;
let headersFile: string;

beforeAll(async () => {
  const root = join(work, 'content');
  await mediaTree(root);
  const { model, issues } = await loadContent(root);
  expect(issues).toEqual([]);
  const snapshot = createSnapshot(model);
  server = await startServer({ snapshot });
  await writeDist(snapshot, { out: join(work, 'dist') });
  preview = await startPreview({ dir: join(work, 'dist'), port: 0 });
  clients.serve = socketClient(server.url);
  clients.createHandler = fetchClient(createHandler(snapshot));
  clients.preview = socketClient(preview.url);
  headersFile = readFileSync(join(work, 'dist', '_headers'), 'utf8');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await preview?.close();
  rmSync(work, { recursive: true, force: true });
});

const CSP = "default-src 'none'; sandbox";

describe.each(['serve', 'createHandler', 'preview'])('media headers (%s)', (name) => {
  it('sends every active type sandboxed, unsniffed and as a download (GET, HEAD, Range, 304)', async () => {
    const client = clients[name] as Client;
    for (const file of Object.keys(ACTIVE)) {
      const path = `/media/site/${file}`;
      const r = await client({ path });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-security-policy'], path).toBe(CSP);
      expect(r.headers['x-content-type-options'], path).toBe('nosniff');
      expect(r.headers['content-disposition'], path).toBe('attachment');
      for (const headers of [{ range: 'bytes=0-3' }, { 'if-none-match': r.headers.etag as string }] as Record<string, string>[]) {
        const again = await client({ path, headers });
        expect([206, 304], `${path} ${JSON.stringify(headers)}`).toContain(again.status);
        expect(again.headers['content-security-policy']).toBe(CSP);
        expect(again.headers['content-disposition']).toBe('attachment');
      }
      const head = await client({ path, method: 'HEAD' });
      expect(head.headers['content-disposition'], `HEAD ${path}`).toBe('attachment');
    }
  });

  it('shows images, text and other inline-safe types inline, still sandboxed and unsniffed', async () => {
    const client = clients[name] as Client;
    for (const file of Object.keys(DISGUISED)) {
      const r = await client({ path: `/media/site/${file}` });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/^(image\/png|text\/plain)/);
      expect(r.headers['content-security-policy'], file).toBe(CSP);
      expect(r.headers['x-content-type-options'], file).toBe('nosniff');
      expect(r.headers['content-disposition'], file).toBeUndefined();
    }
  });

  it('sandboxes the elmapi dialect media and thumbnails alike', async () => {
    const client = clients[name] as Client;
    const page = await client({ path: `/media/${TRAVEL}/page.html` });
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({ 'content-security-policy': CSP, 'content-disposition': 'attachment' });
    const thumb = await client({ path: `/thumbs/${TRAVEL}/tall.png` });
    expect(thumb.status).toBe(200);
    expect(thumb.headers).toMatchObject({
      'content-type': 'image/png',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
    });
  });
});

describe('dist/_headers', () => {
  it('sandboxes /media/* and /thumbs/*, and names each active media file a download', () => {
    const rule = (path: string) => {
      const lines = headersFile.split('\n');
      const at = lines.indexOf(path);
      if (at < 0) return [];
      const out: string[] = [];
      for (let i = at + 1; i < lines.length && /^\s/.test(lines[i] as string); i++) out.push((lines[i] as string).trim());
      return out;
    };
    for (const path of ['/media/*', '/thumbs/*'])
      expect(rule(path)).toEqual(expect.arrayContaining([`Content-Security-Policy: ${CSP}`, 'X-Content-Type-Options: nosniff']));
    for (const file of Object.keys(ACTIVE)) expect(rule(`/media/site/${file}`), file).toEqual(['Content-Disposition: attachment']);
    expect(rule(`/media/${TRAVEL}/page.html`)).toEqual(['Content-Disposition: attachment']);
    for (const file of Object.keys(DISGUISED)) expect(rule(`/media/site/${file}`), file).toEqual([]);
  });
});

describe('the inline-safe list', () => {
  it('lets through raster images, audio, video and plain text only', () => {
    for (const t of [
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
      'image/avif',
      'audio/mpeg',
      'video/mp4',
      'text/plain',
      'text/plain; charset=utf-8',
      'IMAGE/PNG',
    ])
      expect(inlineSafe(t), t).toBe(true);
    for (const t of [
      'image/svg+xml',
      'text/html',
      'application/xhtml+xml',
      'text/xml',
      'application/xml',
      'text/javascript',
      'application/javascript',
      'application/pdf',
      'application/octet-stream',
      'text/css',
      'image/svg',
      'video/x+xml',
      'multipart/x-mixed-replace',
      'text/vtt',
      '',
    ]) {
      expect(inlineSafe(t), t).toBe(false);
    }
  });
});
