// Which media names can be published: every name `cqa check` accepts must be served at its
// full_url by `cqa serve` (src/core/http/routes.ts) and written by `cqa build`. A name with a backslash
// passed the check, was listed with a full_url that answered 404, and failed the build. No Node imports.

/** Bytes of a media id (its path under media/), UTF-8: well within every file system's path limit. */
export const MEDIA_ID_MAX_BYTES = 1024;

// The router refuses a backslash (a path separator on Windows) and NUL; control characters would
// reach logs and terminals; U+FFFD is what a file name that is not valid UTF-8 becomes when it is
// read, so that name no longer opens the file; a lone surrogate cannot be URL-encoded at all.
const UNSERVABLE = /[\x00-\x1f\x7f-\x9f\\\uFFFD\uD800-\uDFFF]/u;

/** Why media `id` ('/'-separated path under media/) cannot be published, or undefined when it can. */
export function mediaNameProblem(id: string): string | undefined {
  const bad = UNSERVABLE.exec(id);
  if (bad) {
    const what =
      bad[0] === '\\'
        ? 'a backslash (\\)'
        : bad[0] === '\uFFFD' || bad[0] >= '\uD800'
          ? 'bytes that are not UTF-8'
          : `a control character (U+${(bad[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')})`;
    return `its name has ${what}, which no URL can serve: rename the file`;
  }
  for (const segment of id.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return `its path has an empty, '.' or '..' part: rename it`;
    // What serve and static hosts do with the full_url: each segment encoded, then decoded again.
    if (decodeURIComponent(encodeURIComponent(segment)) !== segment) return 'its name does not survive URL encoding: rename the file';
  }
  const bytes = new TextEncoder().encode(id).length;
  if (bytes > MEDIA_ID_MAX_BYTES) return `its path under media/ is ${bytes} bytes long, more than ${MEDIA_ID_MAX_BYTES}: shorten it`;
  return undefined;
}
