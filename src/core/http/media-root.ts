// Where a media record's file is served from. No Node imports (the fetch adapter uses it too).
import type { MediaRecord } from '../model/model.js';

/** The folder that holds a project's media files: the record's source path minus its id. */
export function mediaRoot(m: MediaRecord): string {
  const source = m.source.replace(/\\/g, '/');
  if (source.endsWith(`/${m.id}`)) return source.slice(0, -m.id.length - 1);
  const slash = source.lastIndexOf('/');
  return slash > 0 ? source.slice(0, slash) : '/';
}
