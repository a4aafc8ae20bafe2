// What the client puts into a request path, checked before any request: a collection slug, an
// entry id or a media id that is not valid by the content rules (src/core/model/identifiers.ts) is
// refused. An app passing a URL parameter as an id (`entry('posts', params.id)`) could otherwise
// be steered to any path of its project: '../authors/anna-schmidt' returned an author, since the
// URL resolves `..` before it is sent. No Node imports.
import { ENTRY_ID, PROJECT_ID, RESERVED_SLUG } from '../model/identifiers.js';
import { mediaNameProblem } from '../model/media-name.js';
import type { DialectName } from './types.js';

/** Why `value` cannot be the `what` of a request path, or undefined when it can. */
export type SegmentProblem = { readonly param: string; readonly detail: string } | undefined;

const shown = (v: unknown) => (typeof v === 'string' ? `'${v.slice(0, 200)}'` : String(v));

export function slugProblem(slug: unknown): SegmentProblem {
  if (typeof slug === 'string' && PROJECT_ID.test(slug) && slug !== RESERVED_SLUG) return undefined;
  return {
    param: 'collection',
    detail: `collection ${shown(slug)} is not a collection slug: letters, digits, _ and - (a letter or digit first, at most 128)`,
  };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const isPositiveInteger = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

export function entryIdProblem(id: unknown, dialect: DialectName): SegmentProblem {
  if (dialect === 'elmapi3') {
    if (typeof id === 'string' && UUID.test(id)) return undefined;
    return { param: 'id', detail: `entry id ${shown(id)} is not an entry uuid` };
  }
  if (typeof id === 'string' && ENTRY_ID.test(id)) return undefined;
  // The elmapi dialect also names entries by their integer ids.
  if (dialect === 'elmapi' && isPositiveInteger(id)) return undefined;
  // An id is text: `5` from JavaScript is the file 5.yaml's id only as '5' (found from outside).
  const asText = typeof id === 'number' && Number.isFinite(id) && ENTRY_ID.test(String(id));
  const fix = asText
    ? `: ids are strings, pass '${id}'`
    : ": letters, digits, '.', _ and - (a letter or digit first, at most 200); check where the id comes from";
  return { param: 'id', detail: `entry id ${shown(id)} is not an entry id${fix}` };
}

export function mediaIdProblem(id: unknown, dialect: DialectName): SegmentProblem {
  if (dialect !== 'cqa') {
    // The elmapi dialects name media by a positive integer, or as name/<path under media/>; elmapi3 also by uuid.
    if (isPositiveInteger(id) || (typeof id === 'string' && (/^[1-9]\d{0,15}$/.test(id) || (dialect === 'elmapi3' && UUID.test(id)))))
      return undefined;
    if (typeof id === 'string' && id.startsWith('name/') && mediaNameProblem(id.slice(5)) === undefined) return undefined;
    return {
      param: 'id',
      detail: `media id ${shown(id)} is not a media id of the ${dialect} dialect (a positive integer, ${dialect === 'elmapi3' ? 'a uuid, ' : ''}or name/<path under media/>)`,
    };
  }
  // The names the content loader publishes (content/media-name.ts): never an empty, '.' or '..' segment.
  const problem = typeof id === 'string' ? mediaNameProblem(id) : 'it is not a string';
  if (problem === undefined) return undefined;
  return { param: 'id', detail: `media id ${shown(id)} is not a media id (a path under media/ like 'images/cover.jpg'): ${problem}` };
}

/** A raw API path for get(): '' or '/…', without '.' or '..' segments (they would leave the project). */
export function rawPathProblem(path: unknown): SegmentProblem {
  if (
    typeof path === 'string' &&
    (path === '' ||
      (path.startsWith('/') &&
        path
          .split('/')
          .slice(1)
          .every((s) => s !== '.' && s !== '..')))
  )
    return undefined;
  return { param: 'path', detail: `path ${shown(path)} is not a path under the project: '' or '/…' without '.' or '..' segments` };
}
