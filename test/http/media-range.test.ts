// createHandler's media files on Node (docs/security.md, "Image processing and media reads"): the
// ETag comes from the file's identity, not a digest of its bytes, and a Range answer reads only
// its bytes. A 200 MB sparse file with `Range: bytes=0-0` and with If-None-Match: the reads are
// counted through a spy on the file handle, not timed.
import { closeSync, openSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandler } from '../../src/node/server/fetch-node.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import type { MediaRecord } from '../../src/core/model/model.js';
import { fetchClient, makeModel, socketClient, tempDir, TOKENS } from './fixture.js';

const SIZE = 200 * 1024 * 1024;
const dir = tempDir('cqa-media-range-');
const big = join(dir, 'alpha', 'media', 'big.bin');
let server: RunningServer;
let handler: ReturnType<typeof createHandler>;
// Every read and whole-file read through a FileHandle, by bytes asked.
let handleProto: { read: (...a: unknown[]) => unknown; readFile: (...a: unknown[]) => unknown };

beforeAll(async () => {
  const model = makeModel(dir);
  // Sparse: 200 MB long, a few bytes on disk; 'A' first, 'Z' last.
  const fd = openSync(big, 'w');
  writeSync(fd, 'A');
  closeSync(fd);
  truncateSync(big, SIZE);
  const fd2 = openSync(big, 'r+');
  writeSync(fd2, 'Z', SIZE - 1);
  closeSync(fd2);
  const record: MediaRecord = {
    id: 'big.bin',
    file_name: 'big.bin',
    mime_type: 'application/octet-stream',
    size: SIZE,
    width: null,
    height: null,
    caption: null,
    alt: null,
    source: big,
  };
  (model.projects[0]!.media as MediaRecord[]).push(record);
  const snapshot = createSnapshot(model);
  handler = createHandler(snapshot);
  server = await startServer({ snapshot });
  const probe = await open(big, 'r');
  handleProto = Object.getPrototypeOf(probe);
  await probe.close();
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Counts the bytes read through file handles while `run` runs. */
async function bytesRead<T>(run: () => Promise<T>): Promise<{ result: T; bytes: number; wholeFiles: number }> {
  let bytes = 0;
  let wholeFiles = 0;
  const read = handleProto.read;
  vi.spyOn(handleProto, 'read').mockImplementation(async function (this: unknown, ...args: unknown[]) {
    const r = (await read.apply(this, args)) as { bytesRead: number };
    bytes += r.bytesRead;
    return r;
  });
  const readFile = handleProto.readFile;
  vi.spyOn(handleProto, 'readFile').mockImplementation(async function (this: unknown, ...args: unknown[]) {
    wholeFiles++;
    const r = (await readFile.apply(this, args)) as Buffer;
    bytes += r.length;
    return r;
  });
  const result = await run();
  return { result, bytes, wholeFiles };
}

const AUTH = { authorization: `Bearer ${TOKENS.read}` };

describe('createHandler media on Node', () => {
  it('answers Range: bytes=0-0 of a 200 MB file with 206 and one byte, reading about that much', async () => {
    const client = fetchClient(handler);
    const {
      result: r,
      bytes,
      wholeFiles,
    } = await bytesRead(() => client({ path: '/media/alpha/big.bin', headers: { ...AUTH, range: 'bytes=0-0' } }));
    expect(r.status).toBe(206);
    expect(r.body.toString()).toBe('A');
    expect(r.headers['content-range']).toBe(`bytes 0-0/${SIZE}`);
    expect(wholeFiles).toBe(0);
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('reads the last byte alone, and no byte for If-None-Match or HEAD', async () => {
    const client = fetchClient(handler);
    const last = await bytesRead(() => client({ path: '/media/alpha/big.bin', headers: { ...AUTH, range: 'bytes=-1' } }));
    expect(last.result.status).toBe(206);
    expect(last.result.body.toString()).toBe('Z');
    expect(last.bytes).toBeLessThanOrEqual(64 * 1024);
    const etag = last.result.headers.etag as string;
    const again = await bytesRead(() => client({ path: '/media/alpha/big.bin', headers: { ...AUTH, 'if-none-match': etag } }));
    expect(again.result.status).toBe(304);
    expect(again.bytes + again.wholeFiles).toBe(0);
    const head = await bytesRead(() => client({ path: '/media/alpha/big.bin', method: 'HEAD', headers: AUTH }));
    expect(head.result.headers['content-length']).toBe(String(SIZE));
    expect(head.bytes + head.wholeFiles).toBe(0);
  });

  it('sends the same ETag and Last-Modified as cqa serve, so a validator of one works on the other', async () => {
    const viaHandler = await fetchClient(handler)({ path: '/media/alpha/a.png', headers: AUTH });
    const viaServe = await socketClient(server.url)({ path: '/media/alpha/a.png', headers: AUTH });
    expect(viaHandler.headers.etag).toBe(viaServe.headers.etag);
    expect(viaHandler.headers['last-modified']).toBe(viaServe.headers['last-modified']);
    expect(viaHandler.body.toString()).toBe('PNGDATA-0123456789');
    const r = await fetchClient(handler)({
      path: '/media/alpha/a.png',
      headers: { ...AUTH, 'if-none-match': viaServe.headers.etag as string },
    });
    expect(r.status).toBe(304);
  });

  it('streams a whole file in full, byte for byte', async () => {
    const r = await fetchClient(handler)({ path: '/media/alpha/dir/b%20c.txt', headers: AUTH });
    expect(r.status).toBe(200);
    expect(r.text).toBe('hello media');
    const part = await fetchClient(handler)({ path: '/media/alpha/dir/b%20c.txt', headers: { ...AUTH, range: 'bytes=6-' } });
    expect(part.status).toBe(206);
    expect(part.text).toBe('media');
  });
});
