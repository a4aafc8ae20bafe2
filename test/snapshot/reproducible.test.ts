// Reproducible builds (issue 22): two clones of the same commit, checked out at different times,
// build byte-identical trees — created_at/updated_at of entries that set none come from git.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run as check } from '../../src/node/commands/check.js';
import { createContentLoader } from '../../src/node/content/index.js';
import { startServer } from '../../src/node/server/start.js';
import { run as build } from '../../src/node/commands/build.js';
import { listFiles } from './fixture.js';
import type { LoadResult } from '../../src/node/content/load.js';

const work = mkdtempSync(join(tmpdir(), 'cqa-repro-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FIRST = '2021-03-04T05:06:07Z';
const SECOND = '2022-08-09T10:11:12Z';

function git(cwd: string, args: string[], date = FIRST): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
}

function write(root: string, rel: string, text: string): void {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** A repository whose content folder sits in a sub-folder, with two commits at fixed dates. */
function origin(): string {
  const repo = join(work, 'origin');
  mkdirSync(repo);
  git(repo, ['init', '-q', '-b', 'main']);
  write(repo, 'README', 'not content\n');
  write(repo, 'site/content/blog/project.yaml', 'id: blog\nname: Blog\npublic: true\n');
  // No dates: the default order (created_at, newest first) depends on where times come from.
  for (const id of ['a', 'b', 'c']) write(repo, `site/content/blog/posts/${id}.md`, `---\ntitle: Post ${id}\n---\nText ${id}\n`);
  git(repo, ['add', '.']);
  git(repo, ['commit', '-q', '-m', 'first']);
  write(repo, 'site/content/blog/posts/b.md', '---\ntitle: Post b, edited\n---\nText b\n');
  write(repo, 'site/content/blog/posts/d e.md', '---\nid: d\ntitle: Post d\n---\nA file name with a space\n');
  git(repo, ['add', '.'], SECOND);
  git(repo, ['commit', '-q', '-m', 'second'], SECOND);
  return repo;
}

/** A clone whose files all carry the modification time `when` (a checkout at that moment). */
function cloneAt(from: string, name: string, when: Date): string {
  const dir = join(work, name);
  git(work, ['clone', '-q', from, dir]);
  for (const f of listFiles(join(dir, 'site/content'))) utimesSync(join(dir, 'site/content', f), when, when);
  return join(dir, 'site/content');
}

/** [id, created_at, updated_at, published_at] of each post, in list order (what the static client reads). */
const times = (dist: string) =>
  (JSON.parse(readFileSync(join(dist, 'api/blog/posts.query/index.json'), 'utf8')) as { timestamps: string[][] }).timestamps;

const tree = (dir: string) => new Map(listFiles(dir).map((f) => [f, readFileSync(join(dir, f)).toString('base64')]));

describe('reproducible builds', () => {
  let logs: string[];
  beforeEach(() => {
    logs = [];
    const capture = (...a: unknown[]) => void logs.push(a.join(' '));
    vi.spyOn(console, 'log').mockImplementation(capture);
    vi.spyOn(console, 'error').mockImplementation(capture);
  });
  afterEach(() => vi.restoreAllMocks());

  const repo = origin();
  const one = cloneAt(repo, 'one', new Date('2030-01-01T00:00:00Z'));
  const two = cloneAt(repo, 'two', new Date('2031-06-15T12:00:00Z'));

  it('two clones with different file times build byte-identical trees (every file compared)', async () => {
    const code = await build([one, '--out', join(work, 'dist-one')]);
    expect(code, logs.join('\n')).toBe(0);
    expect(await build([two, '--out', join(work, 'dist-two')])).toBe(0);
    const a = tree(join(work, 'dist-one'));
    const b = tree(join(work, 'dist-two'));
    expect([...a.keys()].length).toBeGreaterThan(5);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [file, bytes] of a) expect(b.get(file), file).toBe(bytes);
    expect(logs.join('\n')).not.toMatch(/not committed/);
  });

  it("an entry without dates gets its file's first and last commit times", () => {
    const rows = times(join(work, 'dist-one'));
    expect(rows.map((r) => r[0])).toEqual(['a', 'b', 'c', 'd']);
    expect(rows.find((r) => r[0] === 'b')).toEqual([
      'b',
      '2021-03-04T05:06:07.000Z',
      '2022-08-09T10:11:12.000Z',
      '2021-03-04T05:06:07.000Z',
    ]);
    expect(rows.find((r) => r[0] === 'd')?.slice(1, 3)).toEqual(['2022-08-09T10:11:12.000Z', '2022-08-09T10:11:12.000Z']);
  });

  it("--timestamps mtime uses the files' modification times instead", async () => {
    expect(await build([one, '--out', join(work, 'dist-mtime'), '--timestamps', 'mtime'])).toBe(0);
    expect(times(join(work, 'dist-mtime')).find((r) => r[0] === 'a')?.[1]).toBe('2030-01-01T00:00:00.000Z');
  });

  it('uncommitted files fall back to their mtime, and the build says how many in one line', async () => {
    const dir = join(work, 'one/site/content/blog/posts');
    writeFileSync(join(dir, 'a.md'), '---\ntitle: Post a, not committed yet\n---\n');
    writeFileSync(join(dir, 'new.md'), '---\ntitle: New\n---\n');
    const when = new Date('2032-02-02T00:00:00Z');
    utimesSync(join(dir, 'a.md'), when, when);
    expect(await build([one, '--out', join(work, 'dist-dirty')])).toBe(0);
    const warnings = logs.filter((l) => /not committed/.test(l));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: [^:]*a\.md: this and 1 other entry file \(2 in all\) have changes not committed to git/);
    expect(
      times(join(work, 'dist-dirty'))
        .find((r) => r[0] === 'a')
        ?.slice(1, 3),
    ).toEqual(['2032-02-02T00:00:00.000Z', '2032-02-02T00:00:00.000Z']);
    expect(times(join(work, 'dist-dirty')).find((r) => r[0] === 'c')?.[1]).toBe('2021-03-04T05:06:07.000Z'); // still from git
  });

  it("a reload after an edit (serve --watch) takes the edited file as uncommitted; a full load after the commit takes git's times", async () => {
    const content = cloneAt(repo, 'watched', new Date('2033-03-03T00:00:00Z'));
    const loader = createContentLoader(content);
    const times = (r: Awaited<ReturnType<typeof loader.load>>, id: string) => {
      const e = r.model.projects[0]?.collections[0]?.entries.find((x) => x.id === id);
      return [e?.created_at, e?.updated_at];
    };
    const first = await loader.load();
    expect(times(first, 'c')).toEqual(['2021-03-04T05:06:07.000Z', '2021-03-04T05:06:07.000Z']);
    const file = join(content, 'blog/posts/c.md');
    writeFileSync(file, '---\ntitle: Post c, edited\n---\n');
    utimesSync(file, new Date('2034-04-04T00:00:00Z'), new Date('2034-04-04T00:00:00Z'));
    const edited = await loader.load(['blog/posts/c.md']);
    expect(times(edited, 'c')).toEqual(['2034-04-04T00:00:00.000Z', '2034-04-04T00:00:00.000Z']);
    expect(times(edited, 'a')).toEqual(['2021-03-04T05:06:07.000Z', '2021-03-04T05:06:07.000Z']);
    expect(edited.warnings.map((w) => w.message).join('\n')).toMatch(/^this entry file has changes not committed to git/);
    const third = '2023-01-02T03:04:05Z';
    git(join(work, 'watched'), ['commit', '-qam', 'edit c'], third);
    const committed = await loader.load();
    expect(times(committed, 'c')).toEqual(['2021-03-04T05:06:07.000Z', '2023-01-02T03:04:05.000Z']);
    expect(committed.warnings).toEqual([]);
  });

  /** `serve --watch` of `content`, and post c's updated_at as served: now, or once it is `want` (polled for up to 10 s). */
  async function watchedPostC(content: string) {
    const server = await startServer({ content, port: 0, watch: true, quiet: true });
    const updated = async () =>
      ((await (await fetch(`${server.url}/api/blog/posts/c?timestamps`)).json()) as { data: { updated_at: string } }).data.updated_at;
    const until = async (want: string) => {
      for (let i = 0; i < 200 && (await updated()) !== want; i++) await new Promise((done) => setTimeout(done, 50));
      return updated();
    };
    return { server, updated, until };
  }

  /** Post c edited and not committed, with the modification time 2034-04-04. */
  function editPostC(content: string): void {
    const file = join(content, 'blog/posts/c.md');
    writeFileSync(file, '---\ntitle: Post c, edited\n---\n');
    utimesSync(file, new Date('2034-04-04T00:00:00Z'), new Date('2034-04-04T00:00:00Z'));
  }

  // Found from outside: an edit committed while `serve --watch` ran kept its uncommitted dates
  // until the server was started again (no content file changes on a commit).
  it('serve --watch: a commit of an edited entry serves its commit time, without a restart', async () => {
    const content = cloneAt(repo, 'watched-server', new Date('2033-03-03T00:00:00Z'));
    const { server, updated, until } = await watchedPostC(content);
    try {
      expect(await updated()).toBe('2021-03-04T05:06:07.000Z');
      editPostC(content);
      expect(await until('2034-04-04T00:00:00.000Z')).toBe('2034-04-04T00:00:00.000Z');
      git(join(work, 'watched-server'), ['commit', '-qam', 'edit c'], '2023-01-02T03:04:05Z');
      expect(await until('2023-01-02T03:04:05.000Z')).toBe('2023-01-02T03:04:05.000Z');
    } finally {
      await server.close();
    }
  });

  // Found from outside: an edit undone with `git restore` kept the file's time until a restart
  // (the file is as committed, and HEAD did not move).
  it('serve --watch: an edit undone (git checkout -- file) serves the commit time again', async () => {
    const clone = 'watched-restore';
    const content = cloneAt(repo, clone, new Date('2033-03-03T00:00:00Z'));
    const { server, until } = await watchedPostC(content);
    try {
      editPostC(content);
      expect(await until('2034-04-04T00:00:00.000Z')).toBe('2034-04-04T00:00:00.000Z');
      git(join(work, clone), ['checkout', '--', 'site/content/blog/posts/c.md']);
      expect(await until('2021-03-04T05:06:07.000Z')).toBe('2021-03-04T05:06:07.000Z');
    } finally {
      await server.close();
    }
  });

  /** git on PATH as a script that notes each run of log and diff (cqa's own) and runs the real one. */
  function countingGit(): { runs: () => number; restore: () => void } {
    const bin = join(work, 'counting-bin');
    const calls = join(work, 'git-calls');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    write(bin, 'git', `#!/bin/sh\necho "$5" >> '${calls}'\nexec '${real}' "$@"\n`);
    execFileSync('chmod', ['+x', join(bin, 'git')]);
    writeFileSync(calls, '');
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    return {
      runs: () =>
        readFileSync(calls, 'utf8')
          .split('\n')
          .filter((l) => l === 'log' || l === 'diff').length,
      restore: () => {
        process.env.PATH = path;
      },
    };
  }

  /** c's created_at and updated_at, and the warnings of the load. */
  const postC = (r: LoadResult) => {
    const c = r.model.projects[0]?.collections[0]?.entries.find((x) => x.id === 'c');
    return { c: [c?.created_at, c?.updated_at], warnings: r.warnings.map((w) => w.message).join('\n') };
  };
  const COMMITTED = ['2021-03-04T05:06:07.000Z', '2021-03-04T05:06:07.000Z'];
  // What changed less than 2 s before git was asked may have been read either side of the change: not kept.
  const pastRacyWindow = () => new Promise((done) => setTimeout(done, 2100));

  // A test suite starts a server in each beforeAll: git ran twice per start (~45 ms warm, ~100 ms of
  // a cold start on 2 cores). What it said is kept while HEAD stays and no committed file changes.
  it('a later load in the same process asks git again only when HEAD moved or a committed file changed', async () => {
    const clone = 'kept';
    const content = cloneAt(repo, clone, new Date('2020-01-01T00:00:00Z'));
    const { runs, restore } = countingGit();
    const load = async () => postC(await createContentLoader(content).load());
    try {
      await pastRacyWindow();
      // After a clone git's first diff rewrites its index (the files' times it had are stale), and
      // what it said is kept from the next answer on.
      expect(await load()).toEqual({ c: COMMITTED, warnings: '' });
      expect(await load()).toEqual({ c: COMMITTED, warnings: '' });
      const settled = runs();
      expect(settled).toBeGreaterThanOrEqual(2); // log and diff
      expect(await load()).toEqual({ c: COMMITTED, warnings: '' });
      expect(runs()).toBe(settled); // kept
      // The same size and its old mtime put back: only its change time tells (as in git's index).
      const file = join(content, 'blog/posts/c.md');
      writeFileSync(file, readFileSync(file, 'utf8').replace('Post c', 'Post C'));
      utimesSync(file, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
      const edited = await load();
      expect(edited.c).toEqual(['2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z']);
      expect(edited.warnings).toMatch(/^this entry file has changes not committed to git/);
      expect(runs()).toBe(settled + 1); // the diff alone: HEAD has not moved
      git(join(work, clone), ['commit', '-qam', 'edit c'], '2023-01-02T03:04:05Z');
      expect(await load()).toEqual({ c: ['2021-03-04T05:06:07.000Z', '2023-01-02T03:04:05.000Z'], warnings: '' });
      expect(runs()).toBe(settled + 3); // a new HEAD: log and diff
    } finally {
      restore();
    }
  });

  // `cqa serve`'s cold start ran git twice (~100 ms of ~700 on 2 cores): with the parse cache on, a
  // new process takes git's last answer from it, under the same checks.
  it('a new process with the parse cache asks git nothing while the repository and the files are as they were', async () => {
    const clone = 'kept-between-runs';
    const content = cloneAt(repo, clone, new Date('2020-01-01T00:00:00Z'));
    const keys = mkdtempSync(join(tmpdir(), 'cqa-keys-'));
    const { runs, restore } = countingGit();
    // A load in a fresh module graph, as a new process makes it (nothing kept in memory).
    const load = async () => {
      vi.resetModules();
      const [{ loadContent }, { openParseCache }] = await Promise.all([
        import('../../src/node/content/load.js'),
        import('../../src/node/content/parse-cache.js'),
      ]);
      return postC(await loadContent(content, { parseCache: openParseCache(content, keys) }));
    };
    try {
      await pastRacyWindow();
      expect(await load()).toEqual({ c: COMMITTED, warnings: '' });
      expect(await load()).toEqual({ c: COMMITTED, warnings: '' }); // git's index settled (see above)
      const settled = runs();
      expect(settled).toBeGreaterThanOrEqual(2);
      expect(await load()).toEqual({ c: COMMITTED, warnings: '' });
      expect(runs()).toBe(settled); // from the parse cache
      // Out of the index, not of the folder: the file is as it was, but git now counts it as changed.
      git(join(work, clone), ['rm', '-q', '--cached', 'site/content/blog/posts/c.md']);
      const removed = await load();
      expect(removed.warnings).toMatch(/^this entry file has changes not committed to git/);
      expect(runs()).toBe(settled + 1); // the diff alone
    } finally {
      restore();
      rmSync(keys, { recursive: true, force: true });
    }
  });

  it('startServer (cqa serve) takes the same option: git by default in a work tree, mtime when asked', async () => {
    for (const [timestamps, created] of [
      [undefined, '2021-03-04T05:06:07.000Z'],
      ['mtime', '2031-06-15T12:00:00.000Z'],
    ] as const) {
      const server = await startServer({ content: two, port: 0, ...(timestamps ? { timestamps } : {}) });
      try {
        const res = await fetch(`${server.url}/api/blog/posts/a?timestamps`);
        expect(((await res.json()) as { data: { created_at: string } }).data.created_at, String(timestamps)).toBe(created);
      } finally {
        await server.close();
      }
    }
  });

  it('a repository with no commit yet: every entry file is not committed, and the build says so', async () => {
    const fresh = join(work, 'fresh');
    write(fresh, 'blog/project.yaml', 'id: blog\nname: Blog\npublic: true\n');
    write(fresh, 'blog/posts/a.md', '---\ntitle: A\n---\n');
    write(fresh, 'blog/posts/b.md', '---\ntitle: B\n---\n');
    git(fresh, ['init', '-q', '-b', 'main']);
    expect(await check([fresh])).toBe(0);
    expect(logs.filter((l) => /not committed/.test(l))).toEqual([
      expect.stringMatching(/^warning: [^:]*a\.md: this and 1 other entry file \(2 in all\) have changes not committed to git/),
    ]);
    logs.length = 0;
    expect(await check([fresh, '--timestamps', 'git'])).toBe(0); // a work tree: no error that says otherwise
    expect(logs.join('\n')).not.toMatch(/not inside a git work tree/);
  });

  it('--timestamps git outside a git work tree is a content error saying what to do; a wrong value is a usage error', async () => {
    const plain = join(work, 'plain');
    write(plain, 'blog/project.yaml', 'id: blog\nname: Blog\npublic: true\n');
    write(plain, 'blog/posts/a.md', '---\ntitle: A\n---\n');
    expect(await check([plain, '--timestamps', 'git'])).toBe(1);
    expect(logs.join('\n')).toMatch(/not inside a git work tree .*use --timestamps mtime/);
    expect(await check([plain])).toBe(0); // the default: mtime outside git
    await expect(check([plain, '--timestamps', 'ctime'])).rejects.toThrow(/--timestamps must be one of git, mtime, got 'ctime'/);
  });
});
