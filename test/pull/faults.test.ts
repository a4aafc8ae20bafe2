// A pull in bad weather: a server that fails every 10th request with 503 (Retry-After: 0) still
// gives the same tree; a wrong token, project or folder is refused with the fix in the message, and
// nothing is written.
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server/start.js';
import { retryAfterMs } from '../../src/node/pull/fetch.js';
import { PullError } from '../../src/node/pull/model.js';
import { pull, type PullOptions } from '../../src/node/pull/pull.js';
import { DEMO, SAMPLE, startProxy, tempDir, TRAVEL, treeBytes, type Proxy as RunningProxy } from './fixture.js';

let server: RunningServer;
let flaky: RunningProxy;

beforeAll(async () => {
  server = await startServer({ content: SAMPLE });
  flaky = await startProxy(server.url, { failEvery: 10 });
});
afterAll(async () => {
  await flaky?.close();
  await server?.close();
});

const demo = (baseUrl: string, out: string, extra: Partial<PullOptions> = {}): PullOptions => ({
  baseUrl,
  project: DEMO.project,
  token: DEMO.token,
  dialect: 'cqa',
  out,
  media: true,
  // Small pages: more requests, so more of them fail.
  pageSize: 5,
  ...extra,
});

/** The tree without the marker, which names the base URL the pull came from. */
function content(out: string) {
  const files = treeBytes(out);
  for (const path of [...files.keys()]) if (path.endsWith('.cqa-pull.json')) files.delete(path);
  return files;
}

describe('cqa pull against a flaky server', () => {
  it('10% of requests answered 503: retried, and the tree is the same as from a healthy server', async () => {
    const healthy = tempDir();
    const viaFlaky = tempDir();
    await pull(demo(server.url, healthy));
    await pull({ ...TRAVEL, baseUrl: server.url, dialect: 'elmapi', out: healthy, media: true, pageSize: 2 });
    const before = flaky.failed;
    const a = await pull(demo(flaky.url, viaFlaky));
    const b = await pull({ ...TRAVEL, baseUrl: flaky.url, dialect: 'elmapi', out: viaFlaky, media: true, pageSize: 2 });
    expect(flaky.failed - before).toBeGreaterThanOrEqual(5);
    expect(a.retries + b.retries).toBe(flaky.failed - before);
    expect(content(viaFlaky)).toEqual(content(healthy));
  });

  it('Retry-After in seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:02 GMT', now)).toBe(2000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('cqa pull refuses with the fix in the message', () => {
  async function refusal(options: PullOptions): Promise<PullError> {
    const err = await pull(options).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PullError);
    return err as PullError;
  }

  it('401: names CQA_TOKEN and the project; nothing written', async () => {
    const out = tempDir();
    const err = await refusal(demo(server.url, out, { token: 'wrong' }));
    expect(err.message).toMatch(/HTTP 401.*CQA_TOKEN.*project 'demo'/);
    expect(err.usage).toBe(true);
    expect(readdirSync(out)).toEqual([]);
  });

  it('403: --drafts with a token without the drafts scope', async () => {
    // The sample's read-only token is stored as a sha256 only: a copy of demo gets a plaintext one.
    const content = tempDir();
    cpSync(join(SAMPLE, 'demo'), join(content, 'demo'), { recursive: true });
    appendFileSync(join(content, 'demo/project.yaml'), '  - name: read-only\n    token: read-only-token\n    scopes: [read]\n');
    const readOnly = await startServer({ content });
    try {
      const err = await refusal(demo(readOnly.url, tempDir(), { token: 'read-only-token', drafts: true }));
      expect(err.message).toMatch(/HTTP 403.*drafts scope/);
      expect(err.usage).toBe(true);
    } finally {
      await readOnly.close();
    }
  });

  it('a token from another project: 404 naming --project and the token', async () => {
    const err = await refusal({ ...TRAVEL, baseUrl: server.url, token: DEMO.token, dialect: 'elmapi', out: tempDir() });
    expect(err.message).toMatch(/HTTP 404.*--project/);
  });

  it('404: an unknown project or collection names the option', async () => {
    expect((await refusal(demo(server.url, tempDir(), { project: 'nope' }))).message).toMatch(
      /project 'nope' not found \(HTTP 404\).*--project/,
    );
    expect((await refusal(demo(server.url, tempDir(), { collections: ['posts', 'nope'] }))).message).toMatch(
      /no collection 'nope'; it has authors, /,
    );
    expect((await refusal(demo(server.url, tempDir(), { collections: ['posts'] }))).message).toMatch(
      /relates to 'authors'.*add it to --collections/,
    );
    const elmapi = await refusal({ ...TRAVEL, baseUrl: server.url, collections: ['articles', 'nope'], dialect: 'elmapi', out: tempDir() });
    expect(elmapi.message).toMatch(/collection 'nope' not found \(HTTP 404\).*--collections/);
  });

  it('the wrong dialect is named', async () => {
    const err = await refusal({ ...TRAVEL, baseUrl: server.url, dialect: 'cqa', out: tempDir() });
    expect(err.message).toMatch(/--dialect elmapi/);
    // An ElmapiCMS v3 project asked by its path (found from outside: only "not found" was said).
    const v3 = await refusal({
      baseUrl: server.url,
      project: '3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10',
      token: 'shop3-token',
      dialect: 'cqa',
      out: tempDir(),
    });
    expect(v3.message).toMatch(/not found \(HTTP 404\).*project-id header: pull with --dialect elmapi3$/);
  });

  it('a folder that is not an earlier pull is left alone unless --force', async () => {
    const out = tempDir();
    mkdirSync(join(out, 'demo'));
    writeFileSync(join(out, 'demo', 'notes.txt'), 'mine');
    expect((await refusal(demo(server.url, out))).message).toMatch(/not empty and not an earlier pull.*--force/);
    expect(readdirSync(join(out, 'demo'))).toEqual(['notes.txt']);
    await pull(demo(server.url, out, { force: true, media: false }));
    expect(existsSync(join(out, 'demo', 'notes.txt'))).toBe(false);
    expect(existsSync(join(out, 'demo', 'project.yaml'))).toBe(true);
    // An earlier pull may be replaced without --force.
    await pull(demo(server.url, out, { media: false }));
  });
});
