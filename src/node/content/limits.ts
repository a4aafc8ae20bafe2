// Limits on one content file (entries, project.yaml, _collection.yaml, _media.yaml). Real content
// is far below them; they exist so that a hostile or broken file costs bounded time and memory
// and gets a clear error instead of stalling a build or a `serve --watch` reload.
export const LIMITS = {
  /** Bytes of one content file (media files are not read whole and have no limit). */
  fileBytes: 4 * 1024 * 1024,
  /** Keys in one mapping (a JSON object), at any depth. */
  keysPerMapping: 50_000,
  /** Mappings and lists nested in each other (the file's top-level mapping is level 1). */
  depth: 100,
  /**
   * Lines, commas and brackets of one YAML text: each is a node or more to the parser, whose time
   * and memory grow with them (a 4 MiB file of `[],` took 80 s and 2.7 GB; found from outside; at
   * this limit 3–4 s). Above keysPerMapping's lines, so that a mapping too large is said as such.
   */
  yamlItems: 250_000,
  /**
   * What documents may embed of related entries, in UTF-8 bytes over the whole tree: past both
   * this and `embedFactor` times the values themselves, the relation is refused (resolve.ts).
   */
  embeddedBytes: 256 * 1024 * 1024,
  embedFactor: 64,
  /** Locales of one project: every entry, query and translation is checked against the list. */
  locales: 1_000,
} as const;

const MIB = 1024 * 1024;

export function formatBytes(bytes: number): string {
  return bytes >= MIB ? `${(bytes / MIB).toFixed(1).replace(/\.0$/, '')} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/**
 * 50000 → '50,000'. Not toLocaleString: its first call loads ICU's data, ~150 ms, which this
 * module's import (below) paid on every start of `cqa` and of startServer's process.
 */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export const TOO_MANY_KEYS = `too many keys in one mapping (more than ${groupDigits(LIMITS.keysPerMapping)}, the limit per mapping): split the file up`;

export const TOO_DEEP = `nested more than ${LIMITS.depth} levels deep (the limit): flatten the data`;
