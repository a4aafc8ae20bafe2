// --watch: a change is served after the rebuild, a broken file is reported (file, line, reason)
// while the last good snapshot keeps answering, and the fix is picked up.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ReloadEvent, type RunningServer, type StartServerOptions } from '../../src/node/server/start.js';
import { socketClient, tempDir, type Client } from './fixture.js';

let dir: string;
let server: RunningServer;
let client: Client;
const events: ReloadEvent[] = [];
const lines: string[] = [];
const headers = { accept: 'application/json', authorization: 'Bearer w-token' };

const entry = (title: string) => `---\ntitle: ${title}\n---\nBody of ${title}.\n`;

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const title = async (id: string) => {
  const r = await client({ path: `/api/w/posts/${id}`, headers });
  return r.status === 200 ? (JSON.parse(r.text).data.title as string) : `#${r.status}`;
};

beforeAll(async () => {
  dir = tempDir('cqa-watch-');
  mkdirSync(join(dir, 'w', 'posts'), { recursive: true });
  writeFileSync(join(dir, 'w', 'project.yaml'), 'id: w\nname: Watched\ntokens:\n  - name: t\n    token: w-token\n    scopes: [read]\n');
  writeFileSync(join(dir, 'w', 'posts', 'a.md'), entry('One'));
  server = await startServer({ content: dir, watch: true, quiet: false, log: (l) => lines.push(l), onReload: (e) => events.push(e) });
  client = socketClient(server.url);
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('serve --watch', () => {
  it('serves a change after the rebuild', async () => {
    expect(await title('a')).toBe('One');
    const before = server.snapshot.hash;
    writeFileSync(join(dir, 'w', 'posts', 'a.md'), entry('Two'));
    await until('the new title', async () => ((await title('a')) === 'Two' ? true : undefined));
    expect(server.snapshot.hash).not.toBe(before);
  });

  it('keeps the last good snapshot when a file breaks, reports file, line and reason', async () => {
    const good = server.snapshot.hash;
    const n = events.length;
    writeFileSync(join(dir, 'w', 'posts', 'b.md'), '---\ntitle: ok\nlist: [unclosed\n---\nbody\n');
    const ev = await until('a failed reload', async () => events.slice(n).find((e) => !e.ok));
    expect(ev.ok).toBe(false);
    if (!ev.ok) expect(ev.issues.some((i) => i.file.endsWith('b.md'))).toBe(true);
    const report = lines.find((l) => l.includes('still serving the last good snapshot'));
    expect(report).toMatch(/posts\/b\.md(:\d+)?: /);
    expect(server.snapshot.hash).toBe(good);
    expect(await title('a')).toBe('Two');
    expect(await title('b')).toBe('#404');
  });

  it('picks up the fix', async () => {
    writeFileSync(join(dir, 'w', 'posts', 'b.md'), entry('Bee'));
    await until('the fixed entry', async () => ((await title('b')) === 'Bee' ? true : undefined));
    expect(await title('a')).toBe('Two');
  });

  it('loses no request while snapshots are swapped under load', async () => {
    let stop = false;
    const statuses: number[] = [];
    const load = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (!stop) statuses.push((await client({ path: '/api/w/posts', headers })).status);
      }),
    );
    const swaps = events.length;
    try {
      for (let i = 0; i < 5; i++) {
        writeFileSync(join(dir, 'w', 'posts', 'a.md'), entry(`Load ${i}`));
        await until(`swap ${i} (${JSON.stringify(events.slice(swaps).map((e) => e.ok && e.changed))})`, async () =>
          (await title('a')) === `Load ${i}` ? true : undefined,
        );
      }
    } finally {
      stop = true;
      await load;
    }
    expect(events.length - swaps).toBeGreaterThanOrEqual(5);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.every((s) => s === 200)).toBe(true);
    writeFileSync(join(dir, 'w', 'posts', 'a.md'), entry('Two'));
    await until('reset', async () => ((await title('a')) === 'Two' ? true : undefined));
  });

  // Found from outside: each event postponed the rebuild, so a file written every 10 ms was served
  // only once the writes stopped (3 s of writes, 3 s behind).
  it('serves a file written without pause while the writes go on: the wait for quiet is bounded', async () => {
    const a = join(dir, 'w', 'posts', 'a.md');
    let n = 0;
    let served: string | undefined;
    const end = Date.now() + 6000;
    while (Date.now() < end && served === undefined) {
      writeFileSync(a, entry(`Burst ${++n}`));
      await new Promise((r) => setTimeout(r, 10));
      // A reload may catch the file between truncation and write (no title yet): not a version.
      const now: unknown = n % 10 === 0 ? await title('a') : '';
      if (typeof now === 'string' && now.startsWith('Burst')) served = now;
    }
    // A version of the burst was served while it went on (the loop stops writing once one is).
    expect(served).toMatch(/^Burst \d+$/);
    writeFileSync(a, entry('Two'));
    await until('reset', async () => ((await title('a')) === 'Two' ? true : undefined));
  });

  it('prints a warning a reload finds, once (a warning after start went unsaid)', async () => {
    const before = lines.length;
    writeFileSync(join(dir, 'w', 'posts', 'notes.txt'), 'not an entry');
    await until('the warning', async () => (lines.slice(before).some((l) => l.includes('notes.txt')) ? true : undefined));
    const a = join(dir, 'w', 'posts', 'a.md');
    const was = readFileSync(a, 'utf8');
    writeFileSync(a, entry('One again'));
    await until('the reload', async () => ((await title('a')) === 'One again' ? true : undefined));
    expect(lines.slice(before).filter((l) => l.includes('notes.txt'))).toHaveLength(1);
    rmSync(join(dir, 'w', 'posts', 'notes.txt'));
    writeFileSync(a, was);
    await until('a.md as it was', async () => ((await title('a')) !== 'One again' ? true : undefined));
  });

  it('a new collection folder is picked up', async () => {
    mkdirSync(join(dir, 'w', 'notes'));
    writeFileSync(join(dir, 'w', 'notes', 'n1.yaml'), 'title: Note\n');
    await until('the new collection', async () => {
      const r = await client({ path: '/api/w/notes/n1', headers });
      return r.status === 200 ? true : undefined;
    });
  });

  it('a deleted entry disappears', async () => {
    rmSync(join(dir, 'w', 'posts', 'b.md'));
    await until('the deletion', async () => ((await title('b')) === '#404' ? true : undefined));
  });
});

// Issue 24: broken content is visible outside the terminal, and its end is said.
describe('serve --watch: /healthz while the content is broken', () => {
  const health = async () =>
    JSON.parse((await client({ path: '/healthz', headers: { accept: 'application/json' } })).text) as Record<string, unknown>;

  it('says stale: true with the errors (status 200), then ok again once the fix restores the served snapshot', async () => {
    const good = server.snapshot.hash;
    expect(await health()).toEqual({ status: 'ok', snapshot: good });
    const n = lines.length;
    writeFileSync(join(dir, 'w', 'posts', 'c.md'), '---\ntitle: ok\nlist: [unclosed\n---\nbody\n');
    const stale = await until('stale health', async () => {
      const h = await health();
      return h.stale ? h : undefined;
    });
    expect(stale).toMatchObject({ status: 'ok', snapshot: good, stale: true, errors_total: 1 });
    expect(stale.errors).toEqual([
      expect.objectContaining({ file: 'w/posts/c.md', line: expect.any(Number), message: expect.any(String) }),
    ]);
    expect((await client({ path: '/healthz', headers: { accept: 'application/json' } })).status).toBe(200);
    // The errors quote the broken file: a page of another origin may not read them (no CORS
    // header then); a healthy /healthz answers every origin, as the API does.
    const asked = await client({ path: '/healthz', headers: { accept: 'application/json', origin: 'https://evil.example' } });
    expect(asked.headers['access-control-allow-origin']).toBeUndefined();
    expect(await title('a')).toBe('Two'); // answers still come from the last good snapshot
    // The broken file's entry is missing from that snapshot: its 404 says why.
    const missing = await client({ path: '/api/w/posts/c', headers });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).detail).toMatch(
      /\(the content has 1 error, so the last good snapshot is served: \/healthz lists them\)$/,
    );
    // Removing the broken file gives back exactly the snapshot being served: still "ok again".
    rmSync(join(dir, 'w', 'posts', 'c.md'));
    await until('healthy again', async () => ((await health()).stale === undefined ? true : undefined));
    expect(await health()).toEqual({ status: 'ok', snapshot: good });
    const healthy = await client({ path: '/healthz', headers: { accept: 'application/json', origin: 'https://evil.example' } });
    expect(healthy.headers['access-control-allow-origin']).toBe('*');
    await until('the ok-again line', async () =>
      lines.slice(n).some((l) => l.startsWith('cqa: content ok again — serving snapshot ')) ? true : undefined,
    );
    expect(lines.slice(n).find((l) => l.startsWith('cqa: content ok again'))).toMatch(
      new RegExp(`^cqa: content ok again — serving snapshot ${good} \\(rebuilt in \\d+ ms\\)$`),
    );
  });
});

// Found from outside: with the content folder removed, /healthz named it by its absolute path.
describe('/healthz errors about the content folder itself', () => {
  it('name it ".", not by where it is on the server', async () => {
    const { healthBody } = await import('../../src/core/http/health.js');
    const body = JSON.parse(
      healthBody('h', [
        { file: '/srv/site/content', message: 'content folder not found' },
        { file: 'C:\\site\\content', message: 'content folder not found' },
        { file: 'w/posts/a.md', line: 2, message: 'broken' },
      ]),
    );
    expect(body.errors.map((e: { file: string }) => e.file)).toEqual(['.', '.', 'w/posts/a.md']);
  });
});

// Links under a watched tree (found from outside): a loop of links ended the process (ELOOP thrown
// in the fs.watch callback), and a link to an outside folder was walked and watched, all of it
// (a link to / reached 100,000 watches). A link is never followed by the watcher.
describe('watchContent and links', () => {
  it('survives a loop of links, and never watches the folder a link leads to', async () => {
    const { watchContent } = await import('../../src/node/content/watch.js');
    const root = tempDir('cqa-watch-links-');
    const outside = tempDir('cqa-watch-outside-');
    mkdirSync(join(root, 'p', 'posts'), { recursive: true });
    mkdirSync(join(outside, 'deep'), { recursive: true });
    const changes: (string | undefined)[] = [];
    const errors: unknown[] = [];
    const watcher = watchContent(
      root,
      (p) => changes.push(p),
      (e) => errors.push(e),
    );
    try {
      symlinkSync('l1.md', join(root, 'p', 'posts', 'l2.md'));
      symlinkSync('l2.md', join(root, 'p', 'posts', 'l1.md'));
      symlinkSync(outside, join(root, 'p', 'linked'));
      await new Promise((r) => setTimeout(r, 300));
      expect(changes.length).toBeGreaterThan(0); // the links themselves are changes of the tree
      changes.length = 0;
      writeFileSync(join(outside, 'deep', 'x.md'), 'x');
      writeFileSync(join(outside, 'y.md'), 'y');
      await new Promise((r) => setTimeout(r, 300));
      expect(changes.filter((c) => c === undefined || c.startsWith(outside) || c.includes(`${join('p', 'linked')}`))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await watcher.close();
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

// A folder swapped in at the content path sends no event (found from outside: the old content kept
// being served, /healthz said ok, edits in the new folder were ignored).
describe('serve --watch when the content folder is replaced', () => {
  it('serves the folder now at that path, and its edits', async () => {
    const { renameSync } = await import('node:fs');
    const parent = tempDir('cqa-watch-swap-');
    const root = join(parent, 'content');
    const make = (at: string, name: string) => {
      mkdirSync(join(at, 's', 'posts'), { recursive: true });
      writeFileSync(join(at, 's', 'project.yaml'), 'id: s\npublic: true\n');
      writeFileSync(join(at, 's', 'posts', 'a.md'), entry(name));
    };
    make(root, 'Old');
    const swapped = await startServer({ content: root, watch: true, log: () => undefined });
    const c = socketClient(swapped.url);
    const read = async () => {
      const r = await c({ path: '/api/s/posts/a', headers: { accept: 'application/json' } });
      return r.status === 200 ? (JSON.parse(r.text).data.title as string) : `#${r.status}`;
    };
    try {
      expect(await read()).toBe('Old');
      make(join(parent, 'next'), 'New');
      renameSync(root, join(parent, 'content.old'));
      renameSync(join(parent, 'next'), root);
      await until('the new folder', async () => ((await read()) === 'New' ? true : undefined));
      writeFileSync(join(root, 's', 'posts', 'a.md'), entry('Edited'));
      await until('an edit in it', async () => ((await read()) === 'Edited' ? true : undefined));
    } finally {
      await swapped.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

/**
 * Project `w` (public) with the entries `posts`, served with `watch: true` and mtime dates;
 * `before` runs on the tree before the server starts. `title(id)` is an entry's title as served.
 */
async function watchedTree(posts: Record<string, string>, options: Partial<StartServerOptions> = {}, before?: (root: string) => void) {
  const root = tempDir('cqa-watch-tree-');
  mkdirSync(join(root, 'w', 'posts'), { recursive: true });
  writeFileSync(join(root, 'w', 'project.yaml'), 'id: w\nname: Watched\npublic: true\n');
  for (const [name, text] of Object.entries(posts)) writeFileSync(join(root, 'w', 'posts', name), text);
  before?.(root);
  const watched = await startServer({ content: root, watch: true, timestamps: 'mtime', ...options });
  const get = socketClient(watched.url);
  const title = async (id: string) =>
    JSON.parse((await get({ path: `/api/w/posts/${id}?fields=title`, headers: { accept: 'application/json' } })).text).data.title;
  const post = (name: string, text: string) => writeFileSync(join(root, 'w', 'posts', name), text);
  const close = async () => {
    await watched.close();
    rmSync(root, { recursive: true, force: true });
  };
  return { root, title, post, close };
}

// Found from outside: the watcher started after the first load, so a file saved while it ran was
// never picked up (and one deleted then left `cqa serve --watch` waiting for a fix for ever).
describe('serve --watch: a change while the first load runs', () => {
  it('is served once the server is up', async () => {
    let root = '';
    let written = false;
    const log = (line: string) => {
      // Every file has been read, and the first snapshot is not made yet: now the file changes.
      if (written || !line.startsWith('warning:')) return;
      written = true;
      writeFileSync(join(root, 'w', 'posts', 'a.md'), entry('Saved during the load'));
    };
    // empty.md warns: the warning is printed when every file has been read.
    const tree = await watchedTree({ 'a.md': entry('Before'), 'empty.md': '' }, { quiet: false, log }, (r) => {
      root = r;
    });
    try {
      expect(written).toBe(true);
      await until('the title saved during the load', async () => ((await tree.title('a')) === 'Saved during the load' ? true : undefined));
    } finally {
      await tree.close();
    }
  });
});

// Found from outside: an entry linked to another (ln -s a.md b.md) kept the old text when a.md
// changed, and a linked media file its old size: only the link's own path was looked at again.
describe('serve --watch and a link to a file of the tree', () => {
  it('serves the change of the file it leads to, under the link too', async () => {
    const tree = await watchedTree({ 'a.md': entry('First') }, {}, (root) => symlinkSync('a.md', join(root, 'w', 'posts', 'b.md')));
    try {
      expect(await tree.title('b')).toBe('First');
      tree.post('a.md', entry('Second'));
      await until('the change under the link', async () => ((await tree.title('b')) === 'Second' ? true : undefined));
      expect(await tree.title('a')).toBe('Second');
    } finally {
      await tree.close();
    }
  });
});

// Found from outside: during a `git checkout` of 2,000 files (2 s), the rebuilds made meanwhile
// served half of each branch. git holds index.lock while it writes the work tree.
describe('serve --watch while git changes the work tree', () => {
  it('waits for git to let go of its index lock, then serves the whole change', async () => {
    const tree = await watchedTree({ 'a.md': entry('Main') }, {}, (root) => execFileSync('git', ['init', '-q'], { cwd: root }));
    try {
      writeFileSync(join(tree.root, '.git', 'index.lock'), ''); // a checkout begins
      tree.post('a.md', entry('Feature'));
      await new Promise((done) => setTimeout(done, 700)); // past the 200 ms a stream of changes may wait
      expect(await tree.title('a')).toBe('Main');
      rmSync(join(tree.root, '.git', 'index.lock')); // the checkout is done
      await until('the change after the checkout', async () => ((await tree.title('a')) === 'Feature' ? true : undefined));
    } finally {
      await tree.close();
    }
  });
});

// Found from outside: a change while a rebuild ran reported that rebuild twice (`reloaded in …`
// printed twice, onReload called twice with the same event; 7 times during a git checkout).
describe('serve --watch: changes during a rebuild', () => {
  it('report each rebuild once', async () => {
    // A rebuild of a 3 MB body takes ~100 ms: saves come during it.
    const big = (title: string) => `${entry(title)}\n${'Some words of a long body. '.repeat(120_000)}\n`;
    const seen: ReloadEvent[] = [];
    const tree = await watchedTree({ 'a.md': big('One') }, { onReload: (e) => seen.push(e) });
    try {
      // Saves every 20 ms for half a second: the rebuilds run while more changes come.
      for (let i = 0; i < 25; i++) {
        tree.post('a.md', big(`Save ${i}`));
        await new Promise((done) => setTimeout(done, 20));
      }
      tree.post('a.md', big('Last'));
      await until('the last save', async () => ((await tree.title('a')) === 'Last' ? true : undefined));
      await new Promise((done) => setTimeout(done, 500));
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen).size).toBe(seen.length);
    } finally {
      await tree.close();
    }
  });
});
