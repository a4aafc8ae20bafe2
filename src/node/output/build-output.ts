// `cqa build`'s work, from the content tree to what it writes: load and validate, build the
// snapshot, write the snapshot file and/or the static tree. It runs wherever it is called — the
// load process for a large tree (src/node/load-path.ts) — and tells the caller what happens as
// plain-data events, so the caller (src/node/commands/build.ts) prints the same messages wherever it ran.
import type { FileParser } from '../content/file-parser.js';
import type { TimestampSource } from '../content/git-times.js';
import { loadForJob } from '../content/load.js';
import type { ContentIssue } from '../../core/model/model.js';
import { createSnapshot } from '../../core/snapshot/create.js';
import { DistError, writeDist } from './dist.js';
import type { Precompress } from './dist-compression.js';
import type { Host } from './hosts/index.js';
import type { CacheControl } from './hosts/policy.js';
import { writeSnapshot } from './snapshot-file.js';
import { shellWord } from '../printable.js';

export interface BuildOptions {
  readonly drafts: boolean;
  /** Where created_at/updated_at come from when an entry sets none (LoadOptions.timestamps). */
  readonly timestamps?: TimestampSource;
  /** Prefix of media full_url ('' for root-relative URLs). */
  readonly baseUrl: string;
  /** The static tree's folder; undefined: no tree (--snapshot alone). */
  readonly out?: string;
  readonly precompress: Precompress;
  readonly host?: Host;
  readonly cacheControl?: CacheControl;
  /** Publish projects that need a token too (a static host checks none). */
  readonly includePrivate: boolean;
  /** Also write the portable snapshot file here. */
  readonly snapshotFile?: string;
  /**
   * Build this project alone (`--project`): an `elmapi3` project is written at the v3 paths
   * (`/api`, `/api/<slug>`, …). Without it the tree leaves elmapi3 projects out (a static host
   * cannot read the project-id header that names them). The snapshot file always holds every project.
   */
  readonly project?: string;
}

export type BuildEvent =
  | { readonly kind: 'progress'; readonly stage: 'reading' | 'writing'; readonly done: number; readonly total: number }
  /**
   * The tree is loaded. Nothing is written when there are issues, or when a project needs a token
   * (`needToken`, only for a tree) and includePrivate is not set.
   */
  | {
      readonly kind: 'loaded';
      readonly issues: ContentIssue[];
      readonly warnings: ContentIssue[];
      readonly needToken: string[];
      /** The elmapi3 projects a tree leaves out, each with the command that builds it alone. */
      readonly leftOut: { readonly id: string; readonly command: string }[];
    }
  | { readonly kind: 'snapshot'; readonly file: string; readonly bytes: number; readonly worldReadable: boolean; readonly entries: number }
  | { readonly kind: 'dist'; readonly files: number; readonly bytes: number }
  /** A refused layout or a file system failure (a media file gone, no space, no permission); nothing more is written. */
  | { readonly kind: 'failed'; readonly stage: 'snapshot' | 'dist'; readonly message: string; readonly usage?: true };

/** What a build reports as its end, not as a bug: DistError and the file system's coded errors. */
function expected(e: unknown): boolean {
  return e instanceof DistError || typeof (e as NodeJS.ErrnoException).code === 'string';
}

export async function buildOutput(
  root: string,
  options: BuildOptions,
  report: (event: BuildEvent) => void,
  parser?: FileParser,
): Promise<void> {
  const { model, issues, warnings } = await loadForJob(root, {
    drafts: options.drafts,
    ...(options.timestamps ? { timestamps: options.timestamps } : {}),
    ...(parser ? { parser } : {}),
    onProgress: (done, total) => report({ kind: 'progress', stage: 'reading', done, total }),
  });
  // The projects of the tree: the one --project names, else all but the elmapi3 ones (a static
  // host cannot read the project-id header; each is built alone with --project).
  const chosen = options.project === undefined ? undefined : model.projects.find((p) => p.id === options.project);
  const tree = options.project !== undefined ? (chosen ? [chosen] : []) : model.projects.filter((p) => p.dialect !== 'elmapi3');
  const leftOut =
    options.out !== undefined && options.project === undefined
      ? model.projects.filter((p) => p.dialect === 'elmapi3').map((p) => ({ id: p.id, command: aloneCommand(root, p) }))
      : [];
  // A static host checks no token: a project that needs one is published only when asked for.
  // (The snapshot file is for a worker, which checks tokens.)
  const needToken = options.out !== undefined && issues.length === 0 ? tree.filter((p) => !p.public).map((p) => p.id) : [];
  report({ kind: 'loaded', issues, warnings, needToken, leftOut });
  if (issues.length > 0) return;
  if (options.project !== undefined && !chosen) {
    const ids = model.projects.map((p) => `${p.id}${p.dialect && p.dialect !== 'cqa' ? ` (${p.dialect})` : ''}`).join(', ');
    // --project takes the id, which URLs name; the folder's name is a likely guess (found from
    // outside: `--project shop3` for content/shop3, whose id is a uuid).
    const folder = options.project;
    const inFolder = model.projects.find((p) => p.collections.some((c) => c.entries.some((e) => e.file.startsWith(`${folder}/`))));
    const hint = inFolder
      ? `; '${folder}' is the folder of project '${inFolder.id}', and --project takes its id: --project ${inFolder.id}`
      : '';
    const message = `--project ${options.project}: no such project in ${root}${hint}; the projects are ${ids}`;
    report({ kind: 'failed', stage: 'dist', message, usage: true }); // an option's value: exit 2, as for any usage mistake
    return;
  }
  if (options.out !== undefined && tree.length === 0) {
    report({
      kind: 'failed',
      stage: 'dist',
      message: `every project here is elmapi3, and a static host cannot read the project-id header that names one: build each alone (${leftOut.map((p) => p.id).join(', ')}), e.g. ${leftOut[0]?.command}`,
    });
    return;
  }
  if (needToken.length > 0 && !options.includePrivate) return;

  // A one-off snapshot: no serialisations kept for a next one (see SnapshotOptions.reuse).
  const snapshot = createSnapshot(model, { baseUrl: options.baseUrl, reuse: false });
  const treeSnapshot =
    tree.length === model.projects.length ? snapshot : createSnapshot({ projects: tree }, { baseUrl: options.baseUrl, reuse: false });
  if (options.snapshotFile !== undefined) {
    try {
      const written = await writeSnapshot(snapshot, { file: options.snapshotFile });
      const entries = [...snapshot.projects.values()].reduce(
        (n, p) => [...p.collections.values()].reduce((m, c) => m + c.entries.length, n),
        0,
      );
      report({ kind: 'snapshot', ...written, entries });
    } catch (e) {
      if (!expected(e)) throw e;
      report({ kind: 'failed', stage: 'snapshot', message: (e as Error).message });
      return;
    }
  }
  if (options.out === undefined) return;
  try {
    const written = await writeDist(treeSnapshot, {
      out: options.out,
      precompress: options.precompress,
      ...(options.host ? { host: options.host } : {}),
      ...(options.cacheControl ? { cacheControl: options.cacheControl } : {}),
      onProgress: (done, total) => report({ kind: 'progress', stage: 'writing', done, total }),
    });
    report({ kind: 'dist', ...written });
  } catch (e) {
    if (!expected(e)) throw e;
    report({ kind: 'failed', stage: 'dist', message: (e as Error).message });
  }
}

/** The command that builds elmapi3 project `p` alone, complete, to paste (found from outside: it lacked the folder and --include-private). */
function aloneCommand(root: string, p: { id: string; public: boolean }): string {
  return `cqa build ${shellWord(root)} --project ${p.id}${p.public ? '' : ' --include-private'} --out <another folder>`;
}
