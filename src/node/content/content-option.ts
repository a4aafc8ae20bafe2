// The `content` option of startServer, buildSnapshot and createMswHandlers: a folder — a path, or a
// file: URL (`new URL('./content/', import.meta.url)`, as an object or as its text) — or a tree of
// files as a plain object. A URL object was once taken for an empty tree and a file: URL's text
// for a relative path; any other object that is not a plain one is refused, saying what to give.
import { fileURLToPath } from 'node:url';
import type { ContentTree } from '../../core/model/content-tree.js';

const WHAT = `a folder — a path ('content') or a file: URL (new URL('./content/', import.meta.url)) — or a tree of files ({ 'demo/project.yaml': 'id: demo\\n…' })`;

/** A plain object of any realm (jest runs tests in a context of their own): its prototype is an Object.prototype, or null. */
function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as { constructor?: unknown } | null;
  if (proto === null) return true;
  return Object.getPrototypeOf(proto) === null && typeof proto.constructor === 'function' && proto.constructor.name === 'Object';
}

const isUrl = (v: object): v is URL =>
  v instanceof URL || (Object.prototype.toString.call(v) === '[object URL]' && typeof (v as URL).href === 'string');

function folderOf(fn: string, href: string): string {
  if (!/^file:/i.test(href))
    throw new TypeError(
      `${fn}: content must be ${WHAT}; got the URL ${JSON.stringify(href)}: only a file: URL names a folder (content is read from disk)`,
    );
  try {
    return fileURLToPath(href);
  } catch (err) {
    throw new TypeError(`${fn}: content ${JSON.stringify(href)} names no folder on this machine: ${(err as Error).message}`);
  }
}

function described(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `the ${typeof v} ${String(v)}`;
  if (typeof v === 'object') {
    const name = (Object.getPrototypeOf(v) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === 'string' && name !== '' ? `an object of class ${name}` : 'an object that is not a plain one';
  }
  return `a ${typeof v}`;
}

/**
 * `content` as a folder path or a tree (undefined when not given). A file: URL gives its path; a
 * value of any other kind throws a TypeError naming what to give.
 */
export function contentOption(fn: string, content: unknown): string | ContentTree | undefined {
  if (content === undefined) return undefined;
  if (typeof content === 'string') return /^file:/i.test(content) ? folderOf(fn, content) : content;
  if (typeof content === 'object' && content !== null && !Array.isArray(content)) {
    if (isUrl(content)) return folderOf(fn, content.href);
    if (isPlainObject(content)) return content as ContentTree;
  }
  throw new TypeError(`${fn}: content must be ${WHAT}; got ${described(content)}`);
}
