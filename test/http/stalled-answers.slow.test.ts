// A client that stops reading a large answer (docs/security.md, "Slow clients"): cqa serve and
// cqa preview cut it once it has taken nothing for STALLED_ANSWER_MS to twice that (15–30 s), instead
// of holding the connection for ever (found from outside: 300 such clients, 621 open files). Slow (~35 s).
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDist } from '../../src/node/output/dist.js';
import { loadContent } from '../../src/node/content/load.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { STALLED_ANSWER_MS } from '../../src/node/thresholds.js';

const SIZE = 64 * 2 ** 20; // far more than a loopback socket's buffers hold
const work = mkdtempSync(join(tmpdir(), 'cqa-stalled-'));
let served: RunningServer;
let preview: PreviewServer;

beforeAll(async () => {
  const content = join(work, 'content');
  mkdirSync(join(content, 'p', 'media'), { recursive: true });
  writeFileSync(join(content, 'p', 'project.yaml'), 'id: p\npublic: true\n');
  writeFileSync(join(content, 'p', 'media', 'big.bin'), '');
  truncateSync(join(content, 'p', 'media', 'big.bin'), SIZE); // a hole: no disk taken
  served = await startServer({ content, port: 0 });
  const { model } = await loadContent(content);
  await writeDist(createSnapshot(model), { out: join(work, 'dist') });
  preview = await startPreview({ dir: join(work, 'dist'), port: 0 });
}, 60_000);

afterAll(async () => {
  await served?.close();
  await preview?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Asks for the file, reads nothing for `pauseMs`, then reads to the end: how many bytes came. */
function readAfterPause(url: string, pauseMs: number): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    let bytes = 0;
    socket.on('connect', () => {
      socket.write('GET /media/p/big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      socket.pause();
      setTimeout(() => socket.resume(), pauseMs);
    });
    socket.on('data', (d: Buffer) => (bytes += d.length));
    socket.on('error', () => undefined);
    socket.once('close', () => done(bytes));
    // Bounded: a connection not cut is ended here, once the whole file could have come.
    setTimeout(() => socket.destroy(), pauseMs + 20_000);
  });
}

describe('a client that stops reading a large answer', () => {
  it('is cut by cqa serve and cqa preview once it has taken nothing for 15–30 s; a reading client gets it all', async () => {
    const pause = 2 * STALLED_ANSWER_MS + 3_000;
    const [fromServe, fromPreview, reading] = await Promise.all([
      readAfterPause(served.url, pause),
      readAfterPause(preview.url, pause),
      readAfterPause(served.url, 0),
    ]);
    // Cut: what the socket buffers held when it stopped, never the whole file.
    expect(fromServe).toBeLessThan(SIZE);
    expect(fromPreview).toBeLessThan(SIZE);
    expect(reading).toBeGreaterThan(SIZE); // headers and the whole body
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
  }, 90_000);
});
