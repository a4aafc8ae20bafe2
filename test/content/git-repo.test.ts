// What a content tree's git history depends on, read from the git folder without running git
// (src/node/content/git-repo.ts): it must name the commit git itself says HEAD is, in every way
// refs are kept, and give up (undefined: git runs every time) where the files cannot tell.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outsideWorkTree, repoState } from '../../src/node/content/git-repo.js';

const historyKey = (root: string) => repoState(root)?.history;

const work = mkdtempSync(join(tmpdir(), 'cqa-git-repo-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  }).trim();

function repository(name: string): { repo: string; content: string } {
  const repo = join(work, name);
  const content = join(repo, 'site', 'content');
  mkdirSync(content, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(content, 'a.md'), 'a\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'one');
  return { repo, content };
}

const commit = (repo: string, text: string) => {
  writeFileSync(join(repo, 'site', 'content', 'a.md'), text);
  git(repo, 'commit', '-qam', text);
  return git(repo, 'rev-parse', 'HEAD');
};

describe('repoState', () => {
  it("names git's HEAD commit, wherever the ref is kept (loose, packed, a detached HEAD, another branch)", () => {
    const { repo, content } = repository('refs');
    const keys = new Set<string>();
    const expectHead = () => {
      const key = historyKey(content);
      expect(key?.split('\0')).toContain(git(repo, 'rev-parse', 'HEAD'));
      keys.add(key as string);
    };
    expectHead();
    commit(repo, 'two');
    expectHead();
    git(repo, 'pack-refs', '--all'); // refs/heads/main now only in packed-refs
    expect(historyKey(content)).toBe([...keys].at(-1));
    const [atOne] = keys;
    git(repo, 'checkout', '-q', '--detach', 'HEAD~1');
    expectHead();
    expect(historyKey(content)).toBe(atOne); // the same commit: the same history
    git(repo, 'checkout', '-q', '-b', 'other', 'main');
    commit(repo, 'three');
    expectHead();
    expect(keys.size).toBe(3);
  });

  it("in a worktree: that worktree's HEAD, read through its .git file", () => {
    const { repo } = repository('main-of-worktree');
    const tree = join(work, 'a-worktree');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', tree);
    const sideHead = commit(tree, 'side');
    expect(historyKey(join(tree, 'site', 'content'))?.split('\0')).toContain(sideHead);
    expect(historyKey(join(repo, 'site', 'content'))?.split('\0')).toContain(git(repo, 'rev-parse', 'HEAD'));
    expect(git(repo, 'rev-parse', 'HEAD')).not.toBe(sideHead);
  });

  // Found from outside: each of these made a kept answer differ from what git said.
  it("is found as git finds the repository: from a linked folder's real place, past a .git folder that is no repository", () => {
    const { repo, content } = repository('linked-real');
    const site = join(work, 'linked-site');
    mkdirSync(site);
    git(site, 'init', '-q', '-b', 'main');
    writeFileSync(join(site, 'x'), 'x\n');
    git(site, 'add', '.');
    git(site, 'commit', '-qm', 'site');
    symlinkSync(content, join(site, 'content'));
    expect(historyKey(join(site, 'content'))?.split('\0')).toContain(git(repo, 'rev-parse', 'HEAD'));

    mkdirSync(join(content, '.git'));
    writeFileSync(join(content, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect(historyKey(content)?.split('\0')).toContain(join(repo, '.git'));
  });

  // Found from outside, a second time: where our reading of the folder and git's own differ, git is asked.
  it("gives up wherever git might find another repository or none: a .git that is a link or an unreadable file, a bare-looking folder above, another user's", () => {
    const { repo, content } = repository('odd-finds');
    const key = historyKey(content);
    expect(key).toBeDefined();
    mkdirSync(join(content, '.git', 'objects'), { recursive: true }); // HEAD and objects, no refs: git passes it by
    writeFileSync(join(content, '.git', 'HEAD'), `${git(repo, 'rev-parse', 'HEAD')}\n`);
    expect(historyKey(content)).toBe(key);
    rmSync(join(content, '.git'), { recursive: true });
    writeFileSync(join(content, '.git'), 'garbage\n'); // git: fatal: invalid gitfile format
    expect(historyKey(content)).toBeUndefined();
    rmSync(join(content, '.git'));
    symlinkSync(join(repo, '.git'), join(content, '.git')); // git follows it
    expect(historyKey(content)).toBeUndefined();
    rmSync(join(content, '.git'));
    const site = join(repo, 'site');
    mkdirSync(join(site, 'objects'));
    mkdirSync(join(site, 'refs'));
    writeFileSync(join(site, 'HEAD'), 'ref: refs/heads/main\n'); // git takes site/ for a bare repository
    expect(historyKey(content)).toBeUndefined();
    for (const name of ['objects', 'refs', 'HEAD']) rmSync(join(site, name), { recursive: true });
    expect(historyKey(content)).toBe(key);
    if (process.getuid?.() === 0) {
      execFileSync('chown', ['65534', join(repo, '.git')]); // git: detected dubious ownership
      expect(historyKey(content)).toBeUndefined();
      execFileSync('chown', ['0', join(repo, '.git')]);
    }
  });

  it('gives up when HEAD names a ref a worktree may keep for itself', () => {
    const { repo, content } = repository('worktree-ref');
    git(repo, 'update-ref', 'refs/worktree/x', 'HEAD');
    git(repo, 'symbolic-ref', 'HEAD', 'refs/worktree/x');
    expect(historyKey(content)).toBeUndefined();
  });

  it("changes with git's configuration and environment, which change what git says", () => {
    const { repo, content } = repository('configured');
    const before = historyKey(content);
    git(repo, 'config', 'log.showRoot', 'false');
    const configured = historyKey(content);
    expect(configured).not.toBe(before);
    const home = process.env.HOME;
    process.env.HOME = join(work, 'another-home');
    try {
      expect(historyKey(content)).not.toBe(configured);
    } finally {
      process.env.HOME = home;
    }
    expect(historyKey(content)).toBe(configured);
    const system = join(work, 'system-gitconfig');
    writeFileSync(system, '');
    Object.assign(process.env, { GIT_CONFIG_SYSTEM: system, GIT_CONFIG_NOSYSTEM: '0' }); // '0': git reads it
    try {
      const withSystem = historyKey(content);
      writeFileSync(system, '[log]\n\tshowRoot = false\n');
      expect(historyKey(content)).not.toBe(withSystem);
    } finally {
      delete process.env.GIT_CONFIG_SYSTEM;
      delete process.env.GIT_CONFIG_NOSYSTEM;
    }
    const config = join(repo, '.git', 'config');
    const own = readFileSync(config, 'utf8');
    writeFileSync(config, `${own}[core] [include]\n\tpath = elsewhere\n`);
    expect(historyKey(content)).toBeUndefined(); // what an included file holds is git's to follow
    writeFileSync(config, `${own}${'# a long comment line\n'.repeat(60_000)}`);
    expect(historyKey(content)).toBeUndefined(); // too long to read through
    writeFileSync(config, own);
    expect(historyKey(content)).toBe(configured);
  });

  it('gives up where the files cannot tell what git log shows: no commit yet, replaced commits, a GIT_DIR or ceiling, no repository', () => {
    const empty = join(work, 'empty');
    mkdirSync(empty);
    git(empty, 'init', '-q', '-b', 'main');
    expect(historyKey(empty)).toBeUndefined();

    const { repo, content } = repository('replaced');
    const first = git(repo, 'rev-parse', 'HEAD');
    commit(repo, 'two');
    expect(historyKey(content)).toBeDefined();
    git(repo, 'replace', git(repo, 'rev-parse', 'HEAD'), first);
    expect(historyKey(content)).toBeUndefined();

    const other = repository('with-git-dir');
    process.env.GIT_DIR = join(other.repo, '.git');
    try {
      expect(historyKey(other.content)).toBeUndefined();
    } finally {
      delete process.env.GIT_DIR;
    }
    expect(historyKey(other.content)).toBeDefined();
    process.env.GIT_CEILING_DIRECTORIES = other.repo;
    try {
      expect(historyKey(other.content)).toBeUndefined();
    } finally {
      delete process.env.GIT_CEILING_DIRECTORIES;
    }

    expect(historyKey(tmpdir())).toBeUndefined();
  });
});

describe('outsideWorkTree', () => {
  /** What git itself says: whether `dir` is inside a work tree. */
  const gitSaysInside = (dir: string) => {
    try {
      return git(dir, 'rev-parse', '--is-inside-work-tree') === 'true';
    } catch {
      return false;
    }
  };

  it('is true only where git finds no work tree, and false wherever git might (an invalid .git, GIT_DIR)', () => {
    const plain = join(work, 'plain', 'content');
    mkdirSync(plain, { recursive: true });
    const { repo, content } = repository('outside-check');
    const dotGitFile = join(work, 'gitfile', 'content');
    mkdirSync(dotGitFile, { recursive: true });
    writeFileSync(join(work, 'gitfile', '.git'), 'gitdir: /nowhere\n');
    for (const dir of [plain, repo, content, dotGitFile, join(repo, '.git')]) {
      // Never true where git sees a work tree; true for a plain folder when git agrees.
      if (outsideWorkTree(dir)) expect(gitSaysInside(dir), dir).toBe(false);
    }
    expect(outsideWorkTree(content)).toBe(false);
    expect(outsideWorkTree(dotGitFile)).toBe(false);
    expect(outsideWorkTree(plain)).toBe(!gitSaysInside(plain));
    process.env.GIT_DIR = join(repo, '.git');
    try {
      expect(outsideWorkTree(plain)).toBe(false); // git reads that repository from anywhere
    } finally {
      delete process.env.GIT_DIR;
    }
  });

  it('a tree in a temp folder starts no git process (found from outside: two per startServer)', () => {
    if (gitSaysInside(tmpdir())) return; // a TMPDIR inside a repository: git is rightly asked there
    const bin = join(work, 'spy-bin');
    const log = join(work, 'git-calls.log');
    mkdirSync(bin, { recursive: true });
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$@" >> '${log}'\nexec ${realGit} "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const script = `import { startServer } from ${JSON.stringify(new URL('../../lib/index.js', import.meta.url).href)};
      const s = await startServer({ content: { 'p/project.yaml': 'id: p\\npublic: true\\n', 'p/posts/a.md': '---\\ntitle: A\\n---\\n' } });
      await s.close();`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');
    // The spy does see git where a tree is in a repository.
    const { content } = repository('spied');
    mkdirSync(join(content, 'p'));
    writeFileSync(join(content, 'p', 'project.yaml'), 'id: p\npublic: true\n');
    const inRepo = `import { startServer } from ${JSON.stringify(new URL('../../lib/index.js', import.meta.url).href)};
      const s = await startServer({ content: ${JSON.stringify(content)} }); await s.close();`;
    execFileSync(process.execPath, ['--input-type=module', '-e', inRepo], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    expect(readFileSync(log, 'utf8')).toMatch(/ log /);
  });
});
