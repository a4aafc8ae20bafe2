// In-memory fixtures: a content tree given as an object (`{ 'demo/project.yaml': 'id: demo\n…' }`)
// is written to a private temp folder and loaded from there like any other. The loader, its
// errors (same messages, same file names relative to the root, same lines) and media files stay
// exactly those of a tree on disk; a virtual file system would be a second loader to keep faithful.
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { yamlPackage } from './yaml-package.js';
import type { ContentTree } from '../../core/model/content-tree.js';

export type { ContentTree };

/** A written tree: `root` is the folder to load; `remove()` deletes it (again: no-op). */
export interface WrittenTree {
  readonly root: string;
  remove(): Promise<void>;
}

/** 64 MiB: fixtures are for tests; a larger tree belongs on disk. */
const MAX_TREE_BYTES = 64 * 1024 * 1024;
const MAX_FILES = 100_000;

export const isContentTree = (content: unknown): content is ContentTree =>
  typeof content === 'object' && content !== null && !Array.isArray(content);

/** Refuses a path that would land outside the root or that a file system cannot hold as given. */
function checkPath(path: string): void {
  const why =
    path === ''
      ? 'it is empty'
      : path.startsWith('/') || /^[a-zA-Z]:/.test(path)
        ? 'it is absolute; give it relative to the content root, e.g. demo/posts/a.md'
        : path.includes('\\')
          ? "it has a '\\'; separate folders with '/'"
          : path.includes('\0')
            ? 'it has a NUL character'
            : path.split('/').some((s) => s === '' || s === '.' || s === '..')
              ? "it has an empty, '.' or '..' segment"
              : undefined;
  if (why) throw new TypeError(`content tree: the path ${JSON.stringify(path)} cannot be used: ${why}`);
}

function bytesOf(path: string, value: unknown): string | Uint8Array {
  if (typeof value === 'string' || value instanceof Uint8Array) return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && /\.ya?ml$/.test(path)) return yamlPackage().stringify(value);
  throw new TypeError(
    `content tree: ${JSON.stringify(path)} must be a string or a Uint8Array${/\.ya?ml$/.test(path) ? ', or an object (written as YAML)' : ''}, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
  );
}

/**
 * The folders written and not removed yet. While there are any, one 'exit' listener removes them
 * when the process ends (a test that forgot close()); the last remove() takes it away again, so
 * the host process is left as it was. A process killed by a signal runs no 'exit' listener.
 */
const written = new Set<string>();
const removeWritten = (): void => {
  for (const root of written) {
    try {
      rmSync(root, { recursive: true, force: true });
    } catch {
      /* the process ends anyway: a folder that cannot go must not change how */
    }
  }
};

/** Writes `tree` to a new private temp folder (removed again if writing fails). */
export async function writeContentTree(tree: ContentTree): Promise<WrittenTree> {
  const files = Object.keys(tree);
  if (files.length > MAX_FILES)
    throw new RangeError(`content tree: ${files.length} files is more than ${MAX_FILES}; write a tree that large to disk`);
  // Everything is checked before anything is written.
  let total = 0;
  const contents = files.map((path) => {
    checkPath(path);
    const body = bytesOf(path, tree[path]);
    total += typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    return [path, body] as const;
  });
  if (total > MAX_TREE_BYTES)
    throw new RangeError(`content tree: ${total} bytes is more than ${MAX_TREE_BYTES}; write a tree that large to disk`);
  const root = await mkdtemp(join(tmpdir(), 'cqa-tree-'));
  if (written.size === 0) process.on('exit', removeWritten);
  written.add(root);
  let removed: Promise<void> | undefined;
  const remove = () =>
    (removed ??= rm(root, { recursive: true, force: true }).finally(() => {
      written.delete(root);
      if (written.size === 0) process.off('exit', removeWritten);
    }));
  try {
    for (const [path, body] of contents) {
      const file = join(root, ...path.split('/'));
      try {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, body);
      } catch (err) {
        // `a` and `a/b` both given: one of them cannot be both a file and a folder.
        throw new TypeError(
          `content tree: cannot write ${JSON.stringify(path)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; is a folder of that path also given as a file?`,
        );
      }
    }
  } catch (err) {
    await remove();
    throw err;
  }
  return { root, remove };
}
