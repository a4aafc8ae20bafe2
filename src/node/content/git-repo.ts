// The git repository around a content tree, read from its files without running git: where its
// git folder is (for `serve --watch` to see HEAD move), and what a tree's history depends on
// besides its files (for git-times.ts to know when what git said still holds).
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The git folder of the work tree that holds `root`, found as git finds it: from the folder's real
 * path (git runs there; a linked content folder may sit in another repository), the first `.git`
 * folder that is a repository, or where the `.git` file of a worktree leads. Undefined outside a
 * work tree, and wherever git might decide otherwise (a folder that looks like a bare repository,
 * a `.git` that is a link or a file git cannot read, a repository another user owns): then git
 * itself is asked.
 */
export function gitFolder(root: string): string | undefined {
  try {
    return findGitFolder(realPath(root));
  } catch {
    return undefined; // a folder on the way that cannot be read (EACCES): git may see more
  }
}

function findGitFolder(from: string): string | undefined {
  const uid = process.getuid?.();
  for (let dir = from, depth = 0; depth < 64; depth++) {
    if (isRepository(dir)) return undefined; // git would take it for a bare repository
    const dotGit = join(dir, '.git');
    const kind = lstatSync(dotGit, { throwIfNoEntry: false });
    let found: string | undefined;
    if (kind?.isDirectory() && isRepository(dotGit)) found = dotGit;
    else if (kind?.isFile()) {
      const to = /^gitdir: (.+)\n?$/.exec(readText(dotGit))?.[1];
      if (to === undefined || !isRepository(resolve(dir, to))) return undefined; // git stops there: an invalid gitfile
      found = resolve(dir, to);
    } else if (kind && !kind.isDirectory()) return undefined; // a link (git follows it), or something else
    if (found !== undefined) {
      // git refuses a repository another user owns (safe.directory): what it says then is not ours to know.
      const owners = [dir, dotGit, found].map((path) => lstatSync(path).uid);
      return uid === undefined || owners.every((owner) => owner === uid) ? found : undefined;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/**
 * True when git would find no work tree around `root`: no folder from its real path up holds a
 * `.git` of any kind or is itself a repository, and no GIT_* variable points git elsewhere. A
 * tree in a temp folder (a contract test's fixture) then costs no git process at every start.
 * False wherever that cannot be told (a folder that cannot be read): git is asked.
 */
export function outsideWorkTree(root: string): boolean {
  if (GIT_ENV.some((name) => process.env[name] !== undefined)) return false;
  try {
    for (let dir = realPath(root), depth = 0; depth < 64; depth++) {
      if (lstatSync(join(dir, '.git'), { throwIfNoEntry: false }) || isRepository(dir)) return false;
      const up = dirname(dir);
      if (up === dir) return true;
      dir = up;
    }
  } catch {
    // EACCES on the way: git may see more
  }
  return false;
}

/** A git folder as git accepts one: a HEAD, objects and refs (a worktree's are its main repository's). */
function isRepository(dir: string): boolean {
  const has = (name: string, at = dir) => lstatSync(join(at, name), { throwIfNoEntry: false }) !== undefined;
  if (!has('HEAD')) return false;
  const common = has('commondir') ? resolve(dir, readText(join(dir, 'commondir')).trim()) : dir;
  return has('objects', common) && has('refs', common);
}

function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

// With any of these set, git reads another repository, index, objects or history than its
// folder says: then nothing is known without asking git.
const GIT_ENV = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_GRAFT_FILE',
  'GIT_SHALLOW_FILE',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
];

const COMMIT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

export interface RepoState {
  /**
   * What `git log` of the tree depends on besides its files: the repository, the commit HEAD
   * names, the shallow boundary, git's configuration and environment. The same history, the same log.
   */
  readonly history: string;
  /**
   * The index file as lstat sees it: `git rm --cached` changes what `git diff HEAD` says, and no
   * content file. git writes a new index and renames it into place: a new inode each time.
   */
  readonly index: string;
}

/**
 * The state of the repository around `root`, read from its git folder. Undefined where that
 * cannot be told from the files (no work tree, no commit yet, HEAD on no branch, refs git keeps
 * in a reftable, replaced commits or grafts, a configuration that includes others, a GIT_*
 * variable that redirects git; see gitFolder() too): then git is asked every time.
 */
export function repoState(root: string): RepoState | undefined {
  try {
    if (GIT_ENV.some((name) => process.env[name] !== undefined)) return undefined;
    const gitDir = gitFolder(root);
    if (gitDir === undefined) return undefined;
    // A worktree's folder holds its HEAD and index; the branches, packed refs and history are the main one's.
    const common = resolve(gitDir, readText(join(gitDir, 'commondir')).trim() || '.');
    const packed = readText(join(common, 'packed-refs'), Infinity);
    const head = commitOf(readText(join(gitDir, 'HEAD')).trim(), common, packed);
    if (head === undefined) return undefined;
    if (packed.includes(' refs/replace/') || hasEntries(join(common, 'refs', 'replace'))) return undefined;
    if (lstatSync(join(common, 'info', 'grafts'), { throwIfNoEntry: false })) return undefined;
    const shallow = lstatSync(join(common, 'shallow'), { throwIfNoEntry: false });
    const config = configTexts(gitDir, common);
    if (config === undefined) return undefined;
    const index = lstatSync(join(gitDir, 'index'), { throwIfNoEntry: false });
    return {
      history: [
        realPath(root),
        gitDir,
        head,
        shallow ? `${shallow.ino}:${shallow.size}:${shallow.mtimeMs}` : '',
        // What git reads besides the repository: its environment (which git, whose home) and its configuration.
        Object.keys(process.env)
          .filter((name) => name.startsWith('GIT_') || name === 'HOME' || name === 'XDG_CONFIG_HOME' || name === 'PATH')
          .sort()
          .map((name) => `${name}=${process.env[name]}`)
          .join('\n'),
        config,
      ].join('\0'),
      index: index ? `${index.mtimeMs}:${index.ctimeMs}:${index.size}:${index.ino}` : '',
    };
  } catch {
    return undefined;
  }
}

/** Past this, a configuration file is not read through (it may include others further on). */
const CONFIG_CHARS = 1 << 20;

/**
 * The configuration files git reads, as text (log.showRoot, core.fileMode, core.autocrlf… change
 * what it says): the repository's, the worktree's, the user's and the system's at its usual
 * place. Undefined when one includes others (include, includeIf: followed by git alone), or is
 * too long to read through.
 */
function configTexts(gitDir: string, common: string): string | undefined {
  const env = process.env;
  const home = env.HOME ?? '';
  // Whether git reads the system's (GIT_CONFIG_NOSYSTEM) is left to it: the file is keyed either way.
  const files = [join(common, 'config'), join(gitDir, 'config.worktree'), env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig'];
  if (env.GIT_CONFIG_GLOBAL !== undefined) files.push(env.GIT_CONFIG_GLOBAL);
  else files.push(join(home, '.gitconfig'), join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'));
  const texts = files.map((file) => readText(file, CONFIG_CHARS + 1));
  return texts.some((text) => text.length > CONFIG_CHARS || /\[\s*include/i.test(text)) ? undefined : texts.join('\0');
}

/** The commit a HEAD or ref file's text names: a commit id, or `ref: refs/…` followed (loose, then packed). */
function commitOf(text: string, common: string, packed: string, depth = 0): string | undefined {
  if (COMMIT_ID.test(text)) return text;
  // Only branches: other refs HEAD may name (refs/worktree/, refs/bisect/) can be a worktree's own.
  const ref = /^ref: (refs\/heads\/[^\s]+)$/.exec(text)?.[1];
  if (ref === undefined || depth > 4 || ref.split('/').some((part) => part === '..' || part === '.' || part === '')) return undefined;
  const loose = readText(join(common, ref)).trim();
  if (loose !== '') return commitOf(loose, common, packed, depth + 1);
  for (const line of packed.split('\n')) {
    const [id, name] = line.split(' ');
    if (name === ref && id !== undefined && COMMIT_ID.test(id)) return id;
  }
  return undefined;
}

function hasEntries(folder: string): boolean {
  try {
    return readdirSync(folder).length > 0;
  } catch {
    return false;
  }
}

function readText(path: string, limit = 4096): string {
  try {
    return readFileSync(path, 'utf8').slice(0, limit);
  } catch {
    return '';
  }
}
