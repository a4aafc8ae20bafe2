// Finding the files of a content tree and sorting them into projects, collections and media
// (SPEC §2). Paths are relative to the content root and '/'-separated; everything is sorted so the
// same tree always gives the same model.
import { INVISIBLE_CHARS } from './lookalike.js';
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { compareCodePoints } from '../../core/snapshot/order.js';
import type { IssueList } from './issues.js';
import { mediaNameProblem } from '../../core/model/media-name.js';
import { entryFormat } from './parse.js';
import { NOT_REGULAR } from './file-problem.js';
import { SWAP_FOLDER } from '../output/dist-swap.js';

export interface FileInfo {
  /** Relative to the content root, '/'-separated. */
  readonly rel: string;
  readonly abs: string;
  readonly mtimeMs: number;
  /** When lstat saw it: the inode's change time, which no program sets (git-times.ts: did it change?). */
  readonly ctimeMs?: number;
  readonly size: number;
  /** The file's device and inode as lstat saw them (what open-content.ts compares the opened file with). */
  readonly dev?: number;
  readonly ino?: number;
  /** A symbolic link never read, and why: it leads outside the content folder, to a folder, or nowhere. */
  readonly refused?: 'outside' | 'folder' | 'special' | 'dangling';
  /** For a symbolic link: where it leads, relative to the content root, '/'-separated. */
  readonly target?: string;
  /** A FIFO, socket or device: never read (it would block or never end). */
  readonly special?: true;
  /** A folder that could not be listed: the error code. */
  readonly unreadable?: string;
  /** A name that is not valid UTF-8: read as text (with U+FFFD) it no longer opens the file. */
  readonly badName?: true;
  /** A folder of the content root named as `cqa pull` names its temp folders (`demo.tmp-<pid>-<hex>`): never listed inside. */
  readonly swap?: true;
}

/**
 * A folder of the content root that `cqa pull` writes before swapping it in, or moved aside
 * (dist-swap.ts): a pull killed there leaves it, and read as content it is the project a second
 * time (found from outside: check, build and serve then stopped on a duplicate project id).
 */
const isSwapFolder = (rel: string) => !rel.includes('/') && SWAP_FOLDER.test(rel);

export interface CollectionLayout {
  readonly folder: string;
  readonly config: FileInfo | undefined;
  /** Entry files (.md, .markdown, .yaml, .yml, .json), sub-folders included, sorted by path. */
  readonly entries: readonly FileInfo[];
}

export interface ProjectLayout {
  readonly folder: string;
  readonly projectFile: FileInfo;
  readonly collections: readonly CollectionLayout[];
  readonly media: readonly FileInfo[];
  readonly mediaMeta: FileInfo | undefined;
}

/**
 * Every file and folder under `root`, except names starting with '.' and folders starting with '_'
 * (neither are content). Folders end with '/'. Sorted by path.
 */
export async function listFiles(root: string): Promise<FileInfo[]> {
  const base = resolve(root);
  return listUnder(base, '').sort(byPath);
}

export const byPath = (a: FileInfo, b: FileInfo): number => compareCodePoints(a.rel, b.rel);

/**
 * The listing of the folder `rel` ('' for the root), with paths relative to `base`. Synchronous,
 * like the reads of the files (see load.ts): for a tree of hundreds of files it is several times
 * faster than a walk of promises. Links are never followed blindly: see linkInfo().
 */
function listUnder(base: string, rel: string): FileInfo[] {
  const found: FileInfo[] = [];
  const folders = [rel];
  while (folders.length > 0) {
    const folder = folders.pop() as string;
    const abs = folder === '' ? base : resolve(base, folder);
    let names: Dirent[];
    try {
      names = readdirSync(abs, { withFileTypes: true });
    } catch (err) {
      // Gone meanwhile: nothing to list. A folder that cannot be listed (EACCES) is reported by name.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT')
        found.push({ rel: folder === '' ? './' : `${folder}/`, abs, mtimeMs: 0, size: 0, unreadable: code ?? (err as Error).message });
      continue;
    }
    // A listed name holds no separator, and `abs` is absolute and normalised: no join() needed.
    const prefix = abs.endsWith(sep) ? abs : `${abs}${sep}`;
    for (const d of names) {
      if (d.name.startsWith('.') || (d.name.startsWith('_') && d.isDirectory())) continue;
      const path = folder === '' ? d.name : `${folder}/${d.name}`;
      const at = `${prefix}${d.name}`;
      const info = lstatSync(at, { throwIfNoEntry: false });
      if (!info) {
        // Gone meanwhile, or a name that is not UTF-8 (never silently left out).
        if (d.name.includes('\uFFFD')) found.push({ rel: path, abs: at, mtimeMs: 0, size: 0, badName: true });
        continue;
      }
      if (info.isFile())
        found.push({ rel: path, abs: at, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, size: info.size, dev: info.dev, ino: info.ino });
      else if (info.isDirectory()) {
        if (isSwapFolder(path)) {
          found.push({ rel: `${path}/`, abs: at, mtimeMs: info.mtimeMs, size: info.size, swap: true });
          continue;
        }
        folders.push(path);
        found.push({ rel: `${path}/`, abs: at, mtimeMs: info.mtimeMs, size: info.size });
      } else found.push(withKind({ rel: path, abs: at, mtimeMs: info.mtimeMs, size: info.size }, info, base));
    }
  }
  return found;
}

/** A listed path by what `lstat` says it is. */
function withKind(file: FileInfo, info: Stats, base: string): FileInfo {
  if (info.isSymbolicLink()) return linkInfo(file, base);
  if (!info.isFile() && !info.isDirectory()) return { ...file, special: true };
  return info.isFile() ? { ...file, dev: info.dev, ino: info.ino } : file;
}

/**
 * A symbolic link is read only when it leads to a file inside the content folder: nothing outside
 * the content tree is ever read or served (a link to /etc in media/ would publish it).
 */
function linkInfo(file: FileInfo, base: string): FileInfo {
  let target: string;
  try {
    target = realpathSync(file.abs);
  } catch {
    return { ...file, refused: 'dangling' }; // its target does not exist (or a loop of links)
  }
  const inside = relative(realpathSync(base), target);
  if (inside.startsWith('..') || isAbsolute(inside)) return { ...file, refused: 'outside' };
  try {
    const info = statSync(target);
    if (info.isFile()) return { ...file, mtimeMs: info.mtimeMs, size: info.size, target: inside.split(sep).join('/') };
    return { ...file, refused: info.isDirectory() ? 'folder' : 'special' };
  } catch {
    return { ...file, refused: 'dangling' };
  }
}

/** Why a symbolic link is not read, and what to do. */
function refusedLink(file: FileInfo): string {
  let to = '';
  try {
    to = ` '${readlinkSync(file.abs)}'`;
  } catch {
    // gone meanwhile: said without its target
  }
  if (file.refused === 'dangling')
    return `not read: a symbolic link to${to}, which does not exist: remove the link, or make it lead to an existing file`;
  if (file.refused === 'folder')
    return `not read: a symbolic link to the folder${to}: links are followed to files only, never to folders: link each file, or move the folder here`;
  if (file.refused === 'special')
    return `not read: a symbolic link to${to}, which is ${NOT_REGULAR.replace('remove it', 'remove the link')}`;
  return 'not read: a symbolic link is followed only to a file inside the content folder';
}

/** Whether a path relative to the root is one `listFiles` would list. */
function isListed(rel: string): boolean {
  const parts = rel.split('/');
  if (parts.length > 1 && isSwapFolder(parts[0] as string)) return false;
  return parts.every((p, i) => p !== '' && !p.startsWith('.') && (i === parts.length - 1 || !p.startsWith('_')));
}

/**
 * Updates a previous listing after changes to `paths` (absolute, or relative to the root, as a
 * file watcher reports them): each path is stat'ed again; a missing one is removed with everything under it; a
 * folder is listed again. Much cheaper than listing a large tree from scratch.
 */
export async function updateListing(
  root: string,
  previous: ReadonlyMap<string, FileInfo>,
  paths: readonly string[],
): Promise<Map<string, FileInfo>> {
  const base = resolve(root);
  const next = new Map(previous);
  const removeUnder = (rel: string) => {
    next.delete(rel);
    next.delete(`${rel}/`);
    for (const key of next.keys()) if (key.startsWith(`${rel}/`)) next.delete(key);
  };
  for (const raw of [...new Set(paths)]) {
    const rel = relative(base, resolve(base, raw)).split(sep).join('/');
    if (rel.startsWith('..') || isAbsolute(rel)) continue; // outside the content root
    if (rel === '') return new Map((await listFiles(root)).map((f) => [f.rel, f]));
    if (!isListed(rel)) continue;
    const abs = resolve(base, rel);
    const info = await lstat(abs).catch(() => undefined);
    if (info?.isSymbolicLink()) {
      next.set(rel, linkInfo({ rel, abs, mtimeMs: info.mtimeMs, size: info.size }, base));
    } else if (!info) {
      removeUnder(rel);
      if (rel.includes('\uFFFD')) next.set(rel, { rel, abs, mtimeMs: 0, size: 0, badName: true }); // see listUnder()
    } else if (info.isDirectory()) {
      removeUnder(rel);
      const swap = isSwapFolder(rel);
      next.set(`${rel}/`, { rel: `${rel}/`, abs, mtimeMs: info.mtimeMs, size: info.size, ...(swap ? { swap } : {}) });
      if (!swap) for (const f of listUnder(base, rel)) next.set(f.rel, f);
    } else {
      next.set(rel, withKind({ rel, abs, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, size: info.size }, info, base));
    }
    // A new file or folder deep in the tree implies its parent folders.
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = `${parts.slice(0, i).join('/')}/`;
      if (info && !next.has(dir)) next.set(dir, { rel: dir, abs: resolve(base, dir), mtimeMs: 0, size: 0 });
    }
  }
  return next;
}

const isHidden = (name: string) => name.startsWith('_') || name.startsWith('.');

/** What Windows, Office, editors and browsers leave beside files; in media/ it would be published (found from outside). */
const JUNK = /^(?:thumbs\.db|ehthumbs\.db|desktop\.ini|~\$.*|.*~|.*\.(?:crdownload|part|partial|download|tmp))$/i;

// Where a symbolic link may lead: to what would be listed as the same kind of file on its own. A
// link must never make a settings file (project.yaml with its tokens, _media.yaml) public.

/** Whether `target` (relative to the root) is a media file of the project in `folder`. */
function isMediaOf(folder: string, target: string): boolean {
  const parts = target.split('/');
  return parts.length >= 3 && parts[0] === folder && parts[1] === 'media' && !parts.slice(2).some(isHidden);
}

/**
 * Whether `target` (relative to the root) is an entry file of the collection `folder/collection`:
 * read under another collection's schema (or none), its hidden and password fields would be
 * published, and another project's entries would skip that project's token (found from outside).
 */
function isEntryOf(folder: string, collection: string, target: string): boolean {
  const parts = target.split('/');
  return parts.length >= 3 && parts[0] === folder && parts[1] === collection && !parts.some(isHidden) && entryFormat(target) !== undefined;
}

/** A name as an editor may have mangled it: lower case, no blanks or invisible characters. */
const BLANK_OR_INVISIBLE = new RegExp(`[\\s${INVISIBLE_CHARS}]`, 'g');
const plainName = (name: string) => name.toLowerCase().replace(BLANK_OR_INVISIBLE, '');

/**
 * `_` files of a collection that look like its schema (`_Collection.yaml`, `_collection.yaml.txt`,
 * `_colection.yml`, one in a sub-folder) or like another settings file. Not content; said once the
 * whole collection is listed, since what they mean depends on whether its schema exists.
 */
function misplacedSettings(
  collection: { readonly config?: FileInfo; readonly settingsLike: readonly FileInfo[] },
  issues: IssueList,
): void {
  for (const file of collection.settingsLike) {
    const parts = file.rel.split('/');
    const name = parts[parts.length - 1] as string;
    const schema = `${parts[0]}/${parts[1]}/_collection.yaml`;
    if (parts.length === 3 && name === '_collection.yml') issues.error(file.rel, `the schema is read only from ${schema}: rename it`);
    else if (/^_coll?ections?(?:\.|$)/.test(plainName(name))) {
      // Without its schema a collection's fields are guessed and served as written: hidden and
      // password fields would be published, so a schema under another name must not pass.
      if (!collection.config)
        issues.error(
          file.rel,
          `not read: the schema of collection '${parts[1]}' is read only from ${schema}, which does not exist, so every field would be guessed and published as written (hidden and password fields too): ${parts.length === 3 ? 'rename' : 'move'} this file to ${schema}`,
        );
      else if (parts.length > 3 || /^_collections?\.ya?ml$/.test(name))
        issues.warn(file.rel, `ignored: a collection's schema is the _collection.yaml at the top of its folder (${schema})`);
      else issues.warn(file.rel, `ignored (a name starting with _ is not content): the schema is ${schema}`);
    } else if (/^_media\.ya?ml$/.test(name)) issues.warn(file.rel, `ignored: media details go in ${parts[0]}/media/_media.yaml`);
    else if (/^_[a-z]*col[a-z]*\.ya?ml$/i.test(name))
      issues.warn(file.rel, `ignored (a name starting with _ is not content): is it meant to be ${schema}?`);
  }
}

/**
 * `_` files of media/ that look like its _media.yaml (`_media.YAML`, `_media.yaml.txt`, one in a
 * sub-folder): without the real one the captions and alt texts would be dropped in silence.
 */
function misplacedMediaSettings(folder: string, meta: FileInfo | undefined, files: readonly FileInfo[], issues: IssueList): void {
  const real = `${folder}/media/_media.yaml`;
  for (const file of files) {
    if (file.rel.endsWith('/_media.yml') && file.rel.split('/').length === 3)
      issues.error(file.rel, `media details are read only from ${real}: rename it`);
    else if (!meta)
      issues.error(
        file.rel,
        `not read: media details (captions, alt texts) are read only from ${real}, which does not exist: ${file.rel.split('/').length === 3 ? 'rename' : 'move'} this file to ${real}`,
      );
    else issues.warn(file.rel, `ignored: media details are read only from ${real}`);
  }
}

/** What to do with a temp or moved-aside folder of a pull (isSwapFolder), which is not read. */
function swapFolderWarning(name: string, files: readonly FileInfo[]): string {
  const [, project, kind] = SWAP_FOLDER.exec(name) as RegExpExecArray;
  if (kind === 'tmp')
    return `not read: the temp folder of a cqa pull of ${project} that was stopped (or is still running). The next cqa pull of ${project} into this folder removes it; or delete it once no pull is running`;
  const present = files.some((f) => f.rel === `${project}/`);
  return `not read: the earlier ${project}, which a cqa pull moved aside and was stopped before removing (or is still running). The next cqa pull of ${project} into this folder ${present ? 'removes it' : 'puts it back'}; or, once no pull is running, ${present ? 'delete it' : `rename it to ${project}`}`;
}

/** Sorts the listing into projects; files that mean nothing are reported as warnings. */
export function layoutTree(files: readonly FileInfo[], issues: IssueList): ProjectLayout[] {
  const folders = new Map<
    string,
    {
      projectFile?: FileInfo;
      collections: Map<string, { config?: FileInfo; entries: FileInfo[]; settingsLike: FileInfo[] }>;
      media: FileInfo[];
      mediaMeta?: FileInfo;
      /** `_` files of media/ named like _media.yaml (misplacedMediaSettings). */
      mediaSettingsLike: FileInfo[];
      /** A project.yml was found (and reported) instead of the project.yaml. */
      misnamed?: true;
      /** Files beside project.yaml that mean nothing. */
      stray: string[];
    }
  >();
  const folderOf = (name: string) => {
    let f = folders.get(name);
    if (!f) folders.set(name, (f = { collections: new Map(), media: [], mediaSettingsLike: [], stray: [] }));
    return f;
  };
  for (const file of files) {
    if (file.unreadable) {
      issues.error(
        file.rel,
        `cannot list this folder (${file.unreadable}): give the user running cqa permission to read it, or start its name with _ to leave it out`,
      );
      continue;
    }
    if (file.badName) {
      issues.error(file.rel, 'its name is not valid UTF-8 (saved in another encoding), so it cannot be read or published: rename it');
      continue;
    }
    if (file.refused) {
      issues.error(file.rel, refusedLink(file));
      continue;
    }
    if (file.special) {
      issues.warn(file.rel, `skipped: ${NOT_REGULAR}`);
      continue;
    }
    if (file.swap) {
      issues.warn(file.rel, swapFolderWarning(file.rel.slice(0, -1), files));
      continue;
    }
    const dir = file.rel.endsWith('/');
    const parts = (dir ? file.rel.slice(0, -1) : file.rel).split('/');
    const name = parts[parts.length - 1] as string;
    if (parts.length === 1) {
      if (dir && !isHidden(name)) folderOf(name);
      // Other files in the content root (a README) are ignored, but a project.yaml means the path
      // given was a project folder rather than the content folder.
      else if (name === 'project.yaml') {
        issues.error(
          file.rel,
          'this is a project folder, but a content folder is expected: give the folder that holds the project folders (e.g. content, not content/demo)',
        );
      }
      // A data file there is an entry put one level too high (found from outside: not a word was
      // said). A Markdown file is most likely a README, and is left alone.
      else if (!dir && !isHidden(name) && /\.(?:ya?ml|json)$/i.test(name)) {
        issues.warn(
          file.rel,
          `ignored: the content root holds project folders only; an entry goes in a collection folder of a project (<project>/<collection>/${name})`,
        );
      }
      continue;
    }
    const project = folderOf(parts[0] as string);
    const second = parts[1] as string;
    if (parts.length === 2 && !dir) {
      if (name === 'project.yaml') project.projectFile = file;
      else if (name === 'project.yml') {
        issues.error(file.rel, 'the project file is read only as project.yaml: rename it');
        project.misnamed = true;
      } else if (!isHidden(name)) project.stray.push(file.rel); // said once the folder is known to be a project
      continue;
    }
    if (second === 'media') {
      if (dir) continue;
      if (parts.length === 3 && name === '_media.yaml') project.mediaMeta = file;
      else if (/^_media(?:\.|$)/.test(plainName(name))) project.mediaSettingsLike.push(file);
      else if (isHidden(name)) continue;
      else if (file.target !== undefined && !isMediaOf(parts[0] as string, file.target)) {
        issues.error(
          file.rel,
          `not published: a symbolic link in media/ may lead only to another media file of this project (under ${parts[0]}/media/, not named _… or .…)`,
        );
      } else if (JUNK.test(name)) {
        issues.warn(
          file.rel,
          'skipped: a file the system or an editor makes (a thumbnail cache, a lock, a backup or a partial download), not media: delete it',
        );
      } else {
        const problem = mediaNameProblem(parts.slice(2).join('/'));
        if (problem) issues.error(file.rel, `not published: ${problem}`);
        else project.media.push(file);
      }
      continue;
    }
    if (isHidden(second)) continue;
    let col = project.collections.get(second);
    if (!col) project.collections.set(second, (col = { entries: [], settingsLike: [] }));
    if (dir) continue;
    if (parts.length === 3 && name === '_collection.yaml') col.config = file;
    else if (isHidden(name)) col.settingsLike.push(file);
    else if (name === 'project.yaml' || name === 'project.yml')
      issues.error(
        file.rel,
        `a project file inside the collection '${second}' of project '${parts[0]}': projects cannot be nested, and this one would be published as an entry (tokens included). Move its folder to the content root to make it a project, or rename the file to keep it as an entry`,
      );
    else if (file.target !== undefined && !isEntryOf(parts[0] as string, second, file.target)) {
      issues.error(
        file.rel,
        `not read: a symbolic link to an entry may lead only to another entry file of the same collection (under ${parts[0]}/${second}/, not named _… or .…), which is read under the same schema`,
      );
    } else if (entryFormat(name)) col.entries.push(file);
    // An editor's backup (`post.md~`) comes and goes with each save: not content, and not worth a word.
    else if (!JUNK.test(name)) issues.warn(file.rel, 'ignored: not an entry file (entries are .md, .markdown, .yaml, .yml or .json)');
  }
  // A hard link is the same file under another name: a settings file (project.yaml with its
  // tokens, a schema) linked as an entry or a media file would be published (found from outside).
  const settings = new Map<string, string>();
  for (const f of folders.values())
    for (const file of [f.projectFile, f.mediaMeta, ...[...f.collections.values()].map((c) => c.config)])
      if (file?.ino !== undefined) settings.set(`${file.dev}:${file.ino}`, file.rel);
  const notSettings = (file: FileInfo) => {
    const same = file.ino === undefined ? undefined : settings.get(`${file.dev}:${file.ino}`);
    if (same !== undefined)
      issues.error(file.rel, `not read: a hard link to ${same} (the same file under another name), which would publish it: remove it`);
    return same === undefined;
  };
  const projects: ProjectLayout[] = [];
  for (const [folder, f] of folders) {
    if (!f.projectFile) {
      if (f.misnamed) continue;
      issues.error(
        `${folder}/`,
        `not a project: every folder of the content root needs a project.yaml (add ${folder}/project.yaml, or start the folder name with _ to ignore it)`,
      );
      continue;
    }
    for (const rel of f.stray) issues.warn(rel, 'ignored: a project folder holds project.yaml, media/ and collection folders only');
    for (const c of f.collections.values()) misplacedSettings(c, issues);
    misplacedMediaSettings(folder, f.mediaMeta, f.mediaSettingsLike, issues);
    projects.push({
      folder,
      projectFile: f.projectFile,
      collections: [...f.collections].map(([colFolder, c]) => ({
        folder: colFolder,
        config: c.config,
        entries: c.entries.filter(notSettings),
      })),
      media: f.media.filter(notSettings),
      mediaMeta: f.mediaMeta,
    });
  }
  return projects;
}
