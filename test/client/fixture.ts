// A static tree and a server of the same snapshot, side by side: `cqa build` output served by
// `cqa preview`, and `cqa serve` (startServer) — what the client tests compare.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { writeDist } from '../../src/node/output/dist.js';
import type { Snapshot } from '../../src/core/model/types.js';

export interface Sites {
  /** The build output directory. */
  readonly dist: string;
  readonly preview: PreviewServer;
  readonly server: RunningServer;
  close(): Promise<void>;
}

export async function serveBoth(snapshot: Snapshot): Promise<Sites> {
  const work = mkdtempSync(join(tmpdir(), 'cqa-client-'));
  const dist = join(work, 'dist');
  await writeDist(snapshot, { out: dist });
  const preview = await startPreview({ dir: dist, port: 0 });
  const server = await startServer({ snapshot, port: 0 });
  return {
    dist,
    preview,
    server,
    async close() {
      await Promise.all([preview.close(), server.close()]);
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The server's answer to `GET /api/<project><path>?<query>`: status and body text. */
export async function serverAnswer(
  sites: Sites,
  project: string,
  path: string,
  query: string,
  token?: string,
): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const url = `${sites.server.url}/api/${project}${path.split('/').map(encodeURIComponent).join('/')}${query ? `?${query}` : ''}`;
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.text() };
}
