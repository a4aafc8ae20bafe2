// The body of /healthz. While `--watch` holds content errors, the server still answers from the
// last good snapshot, and /healthz says so: `stale: true` and the errors (file, line, field,
// message), so a person, a script or the explorer sees a broken file without reading the terminal.
// The status stays 200: the server is up and answering; see docs/http-api.md#healthz.
import type { ContentIssue } from '../model/model.js';

/** At most this many errors are listed (`errors_total` counts them all): the body stays small. */
export const MAX_HEALTH_ERRORS = 50;

export function healthBody(hash: string, stale: readonly ContentIssue[] | undefined): string {
  if (!stale) return JSON.stringify({ status: 'ok', snapshot: hash });
  // Undefined line or field: left out by JSON.stringify. The code frame stays in the terminal.
  const errors = stale
    .slice(0, MAX_HEALTH_ERRORS)
    .map((i) => ({ file: servedPath(i.file), line: i.line, field: i.field, message: i.message }));
  return JSON.stringify({ status: 'ok', snapshot: hash, stale: true, errors_total: stale.length, errors });
}

/**
 * Paths relative to the content folder, as the terminal shows them; an error about the folder
 * itself (gone, not a folder, no project) names it by its absolute path there, and `.` here: a
 * client is not told where the server's files are (found from outside).
 */
const servedPath = (file: string) => (/^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(file) ? '.' : file);
