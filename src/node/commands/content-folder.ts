// The content folder a command is given (`cqa check|build|serve [content]`): it must exist and be
// a folder — a usage error (exit 2) otherwise. Given one folder too high (the repository root,
// whose `content/` holds the projects) or too low (a project folder), the error names the folder
// to give instead of listing every file of the wrong tree as a content problem; given a folder with
// no project at all (an app's root, with node_modules), it says so without reading that tree.
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from './args.js';

const isFile = (p: string) =>
  stat(p).then(
    (s) => s.isFile(),
    () => false,
  );

/** Sub-folders that can be content (names starting with `_` or `.` are not, nor node_modules). */
async function folders(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && !/^[_.]/.test(e.name) && e.name !== 'node_modules')
    .map((e) => e.name)
    .sort();
}

export async function contentFolder(path: string, command: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new UsageError(`content folder '${path}' does not exist (give the path: cqa ${command} <content>)`);
  if (!info.isDirectory()) throw new UsageError(`'${path}' is not a folder (give the content folder: cqa ${command} <content>)`);
  if (await isFile(join(path, 'project.yaml'))) {
    throw new UsageError(
      `'${path}' is a project folder; give the folder that holds the projects: did you mean \`cqa ${command} ${dirname(path)}\`?`,
    );
  }
  // One level deeper still: a collection or media/ folder of a project.
  if (await isFile(join(dirname(path), 'project.yaml'))) {
    throw new UsageError(
      `'${path}' is a folder inside the project '${dirname(path)}'; give the folder that holds the projects: did you mean \`cqa ${command} ${dirname(dirname(path))}\`?`,
    );
  }
  const children = await folders(path);
  // A project.yml is a project whose file has the wrong name: the loader says so, naming it.
  for (const child of children) {
    if ((await isFile(join(path, child, 'project.yaml'))) || (await isFile(join(path, child, 'project.yml')))) return path;
  }
  // No project here: is this the folder above the content folder?
  for (const child of children) {
    for (const grandchild of await folders(join(path, child))) {
      if (await isFile(join(path, child, grandchild, 'project.yaml'))) {
        throw new UsageError(
          `'${path}' holds no project (a folder with a project.yaml), but '${join(path, child)}' does: did you mean \`cqa ${command} ${join(path, child)}\`?`,
        );
      }
    }
  }
  // Nothing to load: said before the loader walks a tree that is no content (node_modules, src).
  // cqa init refuses a folder that is not empty (found from outside: the advice was that).
  const start =
    children.length === 0
      ? `start one with \`cqa init ${path}\``
      : `start one with \`cqa init ${join(path, 'demo')}\` (it writes into a new or empty folder), and keep collection folders inside it`;
  throw new UsageError(
    `'${path}' holds no project: a project is a folder with a project.yaml (${join(path, 'demo', 'project.yaml')}); ${start}`,
  );
}
