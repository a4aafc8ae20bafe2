// The content folder a command is given (`cqa check|build|serve [content]`): it must exist and be
// a folder — a usage error (exit 2) otherwise. Given one folder too high (the repository root,
// whose `content/` holds the projects) or too low (a project folder), the error names the folder
// to give instead of listing every file of the wrong tree as a content problem; given a folder with
// no project at all (an app's root, with node_modules), it says so without reading that tree.
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
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

/**
 * The folder above `p`, as the user would type it: '..' for '.' (found from outside: dirname('.')
 * is '.', so inside a project folder the advice was to run the same command again).
 */
function up(p: string): string {
  if (isAbsolute(p)) return dirname(p);
  return relative(process.cwd(), dirname(resolve(p))) || '.';
}

export async function contentFolder(path: string, command: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  // Found from outside: a new user's first `cqa serve`, in a folder with no content yet, was not told how to make one.
  if (!info) {
    throw new UsageError(
      `content folder '${path}' does not exist (give the path: cqa ${command} <content>; or start one: cqa init ${path})`,
    );
  }
  if (!info.isDirectory()) throw new UsageError(`'${path}' is not a folder (give the content folder: cqa ${command} <content>)`);
  if (await isFile(join(path, 'project.yaml'))) {
    const parent = up(path);
    // The folder above holds other folders too (an app's root): each would be read as a project
    // that lacks its project.yaml (found from outside: 2,500 lines for a project kept at the root).
    const others: string[] = [];
    for (const f of await folders(parent)) {
      if (resolve(parent, f) !== resolve(path) && !(await isFile(join(parent, f, 'project.yaml')))) others.push(f);
    }
    if (others.length > 0) {
      const name = basename(resolve(path));
      throw new UsageError(
        `'${path}' is a project folder, and cqa ${command} takes the folder that holds the projects; '${parent}' holds other folders too (${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}), each of which would be read as a project: put '${name}' in a folder of its own, e.g. ${join(parent, 'content', name)}, and give that folder: cqa ${command} ${join(parent, 'content')}`,
      );
    }
    throw new UsageError(
      `'${path}' is a project folder; give the folder that holds the projects: did you mean \`cqa ${command} ${parent}\`?`,
    );
  }
  // One level deeper still: a collection or media/ folder of a project.
  if (await isFile(join(up(path), 'project.yaml'))) {
    throw new UsageError(
      `'${path}' is a folder inside the project '${up(path)}'; give the folder that holds the projects: did you mean \`cqa ${command} ${up(up(path))}\`?`,
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
  // A project folder whose project.yaml is missing (deleted, or never written by a user who made
  // the collections by hand): name it and the file to add, not `cqa init`, which would start
  // another project beside it (found from outside). Known by what only content has: a collection's
  // _collection.yaml, or media/_media.yaml.
  for (const child of children) {
    if (await isFile(join(path, child, 'media', '_media.yaml'))) throw missingProjectFile(path, child, join('media', '_media.yaml'));
    for (const grandchild of await folders(join(path, child))) {
      if (await isFile(join(path, child, grandchild, '_collection.yaml'))) {
        throw missingProjectFile(path, child, join(grandchild, '_collection.yaml'));
      }
    }
  }
  // Nothing to load: said before the loader walks a tree that is no content (node_modules, src).
  // cqa init refuses a folder that is not empty (found from outside: the advice was that), and
  // writes the content folder, whose project is the folder 'site' inside it.
  const start =
    children.length === 0
      ? `start one with \`cqa init ${path}\``
      : `start one with \`cqa init ${join(path, 'content')}\` (it writes ${join(path, 'content', 'site', 'project.yaml')} and more; then \`cqa ${command} ${join(path, 'content')}\`)`;
  throw new UsageError(
    `'${path}' holds no project: a project is a folder with a project.yaml (${join(path, 'demo', 'project.yaml')}); ${start}`,
  );
}

function missingProjectFile(path: string, child: string, found: string): UsageError {
  const project = join(path, child);
  return new UsageError(
    `'${path}' holds no project: '${project}' looks like one (it has ${found}) but has no project.yaml: add ${join(project, 'project.yaml')} ('name: …' and 'public: true' are enough to start; docs/content.md lists its keys)`,
  );
}
