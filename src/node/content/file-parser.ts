// Reading and parsing content files as jobs that another thread can do: a job names a file, its
// outcome is plain data (posted between threads) that the loader turns back into parse results.
// The loader hands a FileParser the files it has no current result for (see load.ts).
import type { ParseCache, PortableCodec } from './parse-cache.js';
import { parseMemo } from './parse-memo.js';
import { isPlainObject } from './issues.js';
import { CANNOT_READ, FileProblem } from './file-problem.js';
import type { ListedFile } from './open-content.js';
import { readContentText } from './read.js';
import {
  entryFormat,
  fromPortable,
  lineInPaths,
  parseEntry,
  parseYaml,
  toPortable,
  type ParsedEntry,
  type ParsedYaml,
  type ParseProblem,
  type PortableEntry,
} from './parse.js';

/** A file to read (its rel's extension tells the format of an entry), as the listing saw it (open-content.ts). */
export interface ParseJob extends ListedFile {
  /** An entry file, or a YAML file of settings (project.yaml, _collection.yaml, _media.yaml). */
  readonly kind: 'entry' | 'yaml';
}

export interface PortableYaml {
  readonly value: unknown;
  readonly problems: readonly ParseProblem[];
  readonly paths: ReadonlyMap<string, number>;
}

/** A job's result as plain data; `failed`: the file could not be read (the loader reports it). */
export type PortableOutcome =
  | { readonly entry: PortableEntry }
  | { readonly yaml: PortableYaml }
  | { readonly failed: { readonly message: string; readonly line?: number | undefined } };

export type Outcome = { readonly entry: ParsedEntry } | { readonly yaml: ParsedYaml } | { readonly failed: FileProblem };

/** Reads and parses files, maybe on another thread; outcomes by absolute path. */
export interface FileParser {
  parse(jobs: readonly ParseJob[]): Promise<Map<string, Outcome>>;
}

/** Jobs a thread takes at a time when two share a list (split-parser.ts): few enough that both end together. */
const CLAIM = 64;

/** The jobs this thread takes from `jobs`, CLAIM at a time from the counter `next` it shares with another thread. */
export function* sharedClaims<T>(jobs: readonly T[], next: Int32Array): Generator<readonly T[]> {
  for (let i = Atomics.add(next, 0, CLAIM); i < jobs.length; i = Atomics.add(next, 0, CLAIM)) yield jobs.slice(i, i + CLAIM);
}

/** `eagerLines`: see parseEntry(). */
export function readEntry(job: ListedFile, eagerLines = false): ParsedEntry {
  return parseEntry(entryFormat(job.rel) ?? 'yaml', readContentText(job), eagerLines);
}

export function readYaml(job: ListedFile): ParsedYaml {
  return parseYaml(readContentText(job));
}

/**
 * readEntry() for a load in this thread: parsed once per text (see parse-memo.ts), or taken from
 * `cache`, what earlier runs parsed (see parse-cache.ts).
 */
export function readEntryOnce(job: ListedFile, cache?: ParseCache): ParsedEntry {
  const format = entryFormat(job.rel) ?? 'yaml';
  return parseMemo().get(format, readContentText(job), (text) =>
    cache ? cache.entry(format, text, () => parseEntry(format, text), ENTRY_CODEC) : parseEntry(format, text),
  );
}

/** readYaml() for a load in this thread, its lines worked out (the YAML document is not kept); `cache` as for readEntryOnce(). */
export function readYamlOnce(job: ListedFile, cache?: ParseCache): ParsedYaml {
  return parseMemo().get('settings', readContentText(job), (text) => {
    const parse = () => {
      const parsed = parseYaml(text);
      return (fromOutcome({ yaml: { value: parsed.value, problems: parsed.problems, paths: parsed.paths() } }) as { yaml: ParsedYaml })
        .yaml;
    };
    return cache ? cache.settings(text, parse, SETTINGS_CODEC) : parse();
  });
}

// Parse results as JSON for the parse cache: the portable forms of the threads, Maps as pairs.
const ENTRY_CODEC: PortableCodec<ParsedEntry> = {
  toPlain(parsed) {
    const { comments, numbers, ...rest } = toPortable(parsed);
    return { ...rest, ...(comments ? { comments: [...comments] } : {}), ...(numbers ? { numbers: [...numbers] } : {}) };
  },
  fromPlain(plain) {
    const { comments, numbers, ...rest } = plain as PortableEntry & { comments?: [string, string][]; numbers?: [string, string][] };
    if (!isPlainObject(rest.data) || typeof rest.source !== 'string') throw new TypeError('not an entry');
    return fromPortable({
      ...rest,
      ...(comments ? { comments: new Map(comments) } : {}),
      ...(numbers ? { numbers: new Map(numbers) } : {}),
    });
  },
};

const SETTINGS_CODEC: PortableCodec<ParsedYaml> = {
  toPlain: (parsed) => ({ value: parsed.value, problems: parsed.problems, paths: [...parsed.paths()] }),
  fromPlain(plain) {
    const { value, problems, paths } = plain as { value: unknown; problems: ParseProblem[]; paths: [string, number][] };
    if (!Array.isArray(problems) || !Array.isArray(paths)) throw new TypeError('not a settings file');
    return (fromOutcome({ yaml: { value, problems, paths: new Map(paths) } }) as { yaml: ParsedYaml }).yaml;
  },
};

/** A read error as a content problem: ours as they are, the file system's by their code. */
export function readFailure(err: unknown): FileProblem {
  if (err instanceof FileProblem) return err;
  return new FileProblem(`${CANNOT_READ}${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}

/**
 * Does one job. `lines`: also work out the lines that messages may need (an entry otherwise parses
 * its text again for them when asked, which must not happen on a thread that answers requests).
 */
export function runJob(job: ParseJob, lines: boolean): PortableOutcome {
  try {
    if (job.kind === 'yaml') {
      const parsed = readYaml(job);
      return { yaml: { value: parsed.value, problems: parsed.problems, paths: parsed.paths() } };
    }
    const parsed = readEntry(job, lines);
    // With its lines, an entry needs its text no more: not copied to the other thread.
    return { entry: lines ? { ...toPortable(parsed), source: '', lines: parsed.lines } : toPortable(parsed) };
  } catch (err) {
    const { message, line } = readFailure(err);
    return { failed: { message, line } };
  }
}

export function fromOutcome(outcome: PortableOutcome): Outcome {
  if ('entry' in outcome) return { entry: fromPortable(outcome.entry) };
  if ('failed' in outcome) return { failed: new FileProblem(outcome.failed.message, outcome.failed.line) };
  const { value, problems, paths } = outcome.yaml;
  return {
    yaml: { value, problems, paths: () => paths, lineOf: (path) => lineInPaths(paths, path) },
  };
}
