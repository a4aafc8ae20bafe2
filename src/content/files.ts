// Finding the files of a content tree and sorting them into projects, collections and media
// (SPEC §2). Paths are relative to the content root and '/'-separated; everything is sorted so the
// same tree always gives the same model.
import fg from 'fast-glob';
import { resolve } from 'node:path';
import { compareCodePoints } from '../snapshot/order.js';
import type { IssueList } from './issues.js';
import { entryFormat } from './parse.js';

export interface FileInfo {
  /** Relative to the content root, '/'-separated. */
  readonly rel: string;
  readonly abs: string;
  readonly mtimeMs: number;
  readonly size: number;
}

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
 * Every file and folder under `root`, except names starting with '.' and the contents of folders
 * starting with '_' (neither are content). Folders end with '/'.
 */
export async function listFiles(root: string): Promise<FileInfo[]> {
  const found = await fg('**', {
    cwd: root,
    dot: false,
    onlyFiles: false,
    markDirectories: true,
    stats: true,
    followSymbolicLinks: true,
    ignore: ['**/_*/**'],
  });
  const base = resolve(root);
  return found
    .map((e) => ({ rel: e.path, abs: resolve(base, e.path), mtimeMs: e.stats?.mtimeMs ?? 0, size: e.stats?.size ?? 0 }))
    .sort((a, b) => compareCodePoints(a.rel, b.rel));
}

const isHidden = (name: string) => name.startsWith('_') || name.startsWith('.');

/** Sorts the listing into projects; files that mean nothing are reported as warnings. */
export function layoutTree(files: readonly FileInfo[], issues: IssueList): ProjectLayout[] {
  const folders = new Map<string, { projectFile?: FileInfo; collections: Map<string, { config?: FileInfo; entries: FileInfo[] }>; media: FileInfo[]; mediaMeta?: FileInfo }>();
  const folderOf = (name: string) => {
    let f = folders.get(name);
    if (!f) folders.set(name, (f = { collections: new Map(), media: [] }));
    return f;
  };
  for (const file of files) {
    const dir = file.rel.endsWith('/');
    const parts = (dir ? file.rel.slice(0, -1) : file.rel).split('/');
    const name = parts[parts.length - 1] as string;
    if (parts.length === 1) {
      if (dir && !isHidden(name)) folderOf(name); // files in the content root (a README) are ignored
      continue;
    }
    const project = folderOf(parts[0] as string);
    const second = parts[1] as string;
    if (parts.length === 2 && !dir) {
      if (name === 'project.yaml') project.projectFile = file;
      else if (!isHidden(name)) issues.warn(file.rel, 'ignored: a project folder holds project.yaml, media/ and collection folders only');
      continue;
    }
    if (second === 'media') {
      if (dir) continue;
      if (parts.length === 3 && name === '_media.yaml') project.mediaMeta = file;
      else if (!isHidden(name)) project.media.push(file);
      continue;
    }
    if (isHidden(second)) continue;
    let col = project.collections.get(second);
    if (!col) project.collections.set(second, (col = { entries: [] }));
    if (dir) continue;
    if (parts.length === 3 && name === '_collection.yaml') col.config = file;
    else if (isHidden(name)) continue;
    else if (entryFormat(name)) col.entries.push(file);
    else issues.warn(file.rel, 'ignored: not an entry file (entries are .md, .markdown, .yaml, .yml or .json)');
  }
  const projects: ProjectLayout[] = [];
  for (const [folder, f] of folders) {
    if (!f.projectFile) {
      issues.error(`${folder}/`, `not a project: every folder of the content root needs a project.yaml (add ${folder}/project.yaml, or start the folder name with _ to ignore it)`);
      continue;
    }
    projects.push({
      folder,
      projectFile: f.projectFile,
      collections: [...f.collections].map(([colFolder, c]) => ({ folder: colFolder, config: c.config, entries: c.entries })),
      media: f.media,
      mediaMeta: f.mediaMeta,
    });
  }
  return projects;
}
