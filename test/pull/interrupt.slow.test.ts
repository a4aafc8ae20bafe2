// Ctrl-C during a pull: the real CLI, slowed down by a proxy, is interrupted while it downloads
// media (its temp folder exists then). The earlier pull stays as it was, byte for byte, and no
// temp folder is left beside it.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { pull } from '../../src/node/pull/pull.js';
import { DEMO, SAMPLE, startProxy, tempDir, treeBytes, type Proxy as RunningProxy } from './fixture.js';

let server: RunningServer;
let slow: RunningProxy;

beforeAll(async () => {
  server = await startServer({ content: SAMPLE });
  slow = await startProxy(server.url, { delayMs: 150 });
});
afterAll(async () => {
  await slow?.close();
  await server?.close();
});

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1200 && !cond(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
}

describe('cqa pull interrupted with SIGINT', () => {
  it('leaves the output folder as it was (exit 130), with no temp folder beside it', { timeout: 90_000 }, async () => {
    const out = tempDir();
    // An earlier pull through the same proxy, so the interrupted one replaces a real tree.
    await pull({ baseUrl: slow.url, project: DEMO.project, token: DEMO.token, dialect: 'cqa', out, media: true });
    const before = treeBytes(out);
    const start = slow.requests;

    const child = spawn(
      process.execPath,
      ['bin/cqa.js', 'pull', slow.url, '--project', 'demo', '--out', out, '--media', '--concurrency', '1'],
      {
        env: { ...process.env, CQA_TOKEN: DEMO.token },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      // 9 documents and the public probe come first; from the 12th request on it downloads media.
      await until(() => slow.requests - start >= 14, 'the media downloads');
      expect(readdirSync(out).some((n) => n.includes('.tmp-'))).toBe(true);
      child.kill('SIGINT');
      expect(await exited).toBe(130);
    } finally {
      child.kill('SIGKILL');
    }
    expect(stderr).toMatch(/interrupted; .*demo left as it was/);
    expect(readdirSync(out)).toEqual(['demo']);
    expect(treeBytes(out)).toEqual(before);
  });
});
