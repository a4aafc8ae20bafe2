// Names that a Linux or macOS file system holds and Windows does not: a device name (`CON`,
// `nul.md`: Windows opens the device, whatever the extension), a name ending in a dot or a space
// (Windows drops them), or one with a character Windows refuses. `cqa check` passed such a tree,
// which a Windows teammate's git checkout, or a copy of the built dist/ to Windows, cannot hold
// (found from outside). A warning, as ids that differ only in case are (collection.ts).

const DEVICE = /^(?:con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])(?:\.|$)/i;
const REFUSED = /[<>:"|?*\\\x00-\x1f]/;

// Whatever problemOf() refuses in a segment, looked for in the whole path at once: most paths have
// none, and are passed after one test instead of three per segment (10,000 entries: 1.2–1.6 vs 3.7–4.3 ms).
const SUSPECT = /(?:^|\/)(?:con|prn|aux|nul|com|lpt)|[<>:"|?*\\\x00-\x1f]|[. ](?:\/|$)/i;

const TAIL = 'a git checkout or a copy of the built tree (dist/) on Windows cannot hold it; rename it';

/** Why Windows cannot hold `name` (one segment of a path), or undefined. */
function problemOf(name: string): string | undefined {
  if (DEVICE.test(name))
    return `'${name}' is a device name Windows reserves (CON, PRN, AUX, NUL, COM1-9, LPT1-9, whatever the extension): ${TAIL}`;
  if (REFUSED.test(name)) return `'${name}' holds a character Windows does not allow in a file name (< > : " | ? * \\): ${TAIL}`;
  if (/[. ]$/.test(name))
    return `'${name}' ends in ${name.endsWith('.') ? 'a dot' : 'a space'}, which Windows drops from a file name: ${TAIL}`;
  return undefined;
}

/**
 * The first segment of the path `rel` (a content file, relative to the content root), or else
 * of each of `names` (folders cqa build makes of an id), that Windows cannot hold, said so.
 */
export function windowsNameProblem(rel: string, ...names: string[]): string | undefined {
  if (!SUSPECT.test(rel) && names.every((name) => !SUSPECT.test(name))) return undefined;
  for (const segment of [...rel.split('/'), ...names]) {
    const problem = problemOf(segment);
    if (problem) return problem;
  }
  return undefined;
}
