// Found from outside: under --watch, a file deleted between a rebuild's listing and its read (a git
// checkout, a tool's temporary file) was reported as a broken file, 'cannot read the file:
// ENOENT', and /healthz said stale. It is a deletion: the rebuild looks at those paths again.
// Slow (about 12 s): the window is a few milliseconds, so it takes a busy server and 200 files.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startServer, type ReloadEvent, type RunningServer } from '../../src/node/server/start.js';
import { tempDir } from './fixture.js';

const dir = tempDir('cqa-vanished-');
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('takes a file deleted while a rebuild reads it for a deletion, not a content error', async () => {
  mkdirSync(join(dir, 'w', 'posts'), { recursive: true });
  writeFileSync(join(dir, 'w', 'project.yaml'), 'id: w\npublic: true\n');
  // A tree that takes a rebuild some milliseconds, so that deletions land inside one.
  for (let i = 0; i < 600; i++) writeFileSync(join(dir, 'w', 'posts', `p${i}.md`), `---\ntitle: P ${i}\n---\nBody ${i}.\n`);
  const events: ReloadEvent[] = [];
  const running = await startServer({ content: dir, watch: true, onReload: (e) => events.push(e) });
  server = running;
  // A client polling /healthz, as a dashboard or a test runner's webServer does.
  let polling = true;
  const poll = (async () => {
    while (polling) {
      await fetch(`${running.url}/healthz`).then((r) => r.arrayBuffer());
      await sleep(2);
    }
  })();
  for (let i = 0; i < 200; i++) {
    const file = join(dir, 'w', 'posts', `tmp-${i}.yaml`);
    writeFileSync(file, `title: T ${i}\n`);
    await sleep(20 + (i % 7) * 3);
    rmSync(file, { force: true });
    await sleep(15 + (i % 5) * 4);
  }
  polling = false;
  await poll;
  await sleep(300);
  expect(events.length).toBeGreaterThan(100);
  expect(events.flatMap((e) => (e.ok ? [] : e.issues.map((i) => `${i.file}: ${i.message}`)))).toEqual([]);
  const health = (await (await fetch(`${running.url}/healthz`)).json()) as { stale?: boolean };
  expect(health.stale).toBeUndefined();
}, 60_000);
