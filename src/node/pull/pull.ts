// `cqa pull`: a live content API → a content tree. Reads the project through its dialect's reader,
// writes the tree into a temp folder beside the target, downloads the media, and swaps the folder
// in as `cqa build` swaps dist/ (src/node/output/dist-swap.ts): an interrupted or failed pull leaves
// the target as it was. A marker file says the folder is a pull (so a later pull may replace it)
// and remembers the ETags and answers for the next, incremental pull.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { idProblem } from '../../core/model/identifiers.js';
import { newSuffix, recoverOutput, siblingName, swapIn } from '../output/dist-swap.js';
import type { DialectName } from '../../core/model/model.js';
import { Fetcher, type EtagCache } from './fetch.js';
import { pullLimits, type PullLimits } from './limits.js';
import { downloadMedia, type MediaEtags } from './media.js';
import { PullError, type PulledProject } from './model.js';
import { readCqa } from './read-cqa.js';
import { readElmapi } from './read-elmapi.js';
import { readElmapi3 } from './read-elmapi3.js';
import type { ReadOptions } from './read-options.js';
import { relaxRequired } from './required.js';
import { recogniseTranslations } from './translations.js';
import { entryPath, writeTree } from './write-tree.js';
import { makeFolders } from '../make-folders.js';
import { readContentText } from '../content/read.js';
import { parseYaml } from '../content/parse.js';
import { isObject } from './answers.js';

/** A dialect's reader: one per dialect, or tsc refuses the build (a name left out was read as cqa). */
const READERS: Readonly<Record<DialectName, (o: ReadOptions) => Promise<PulledProject>>> = {
  cqa: readCqa,
  elmapi: readElmapi,
  elmapi3: readElmapi3,
};

/** In the pulled project folder: what makes it "an earlier pull", and its ETags. */
export const MARKER = '.cqa-pull.json';

export interface PullOptions {
  /** The API's address, the part before /api: http://127.0.0.1:4000 */
  readonly baseUrl: string;
  readonly project: string;
  readonly dialect: DialectName;
  readonly collections?: readonly string[];
  /** The content folder; the project is written to <out>/<project>. */
  readonly out: string;
  readonly token?: string;
  readonly drafts?: boolean;
  readonly media?: boolean;
  readonly concurrency?: number;
  /** Replace a folder that is not an earlier pull. */
  readonly force?: boolean;
  readonly signal?: AbortSignal;
  /** Items per page of a list (default 100). */
  readonly pageSize?: number;
  /** The largest JSON answer read (default 64 MiB; tests make it small). */
  readonly maxDocumentBytes?: number;
  /** Pages, items, answer bytes and media bytes a pull may read (limits.ts; each has a default). */
  readonly limits?: Partial<PullLimits>;
  /** The time each request has for its whole answer, headers and body (default 60 s; --timeout). */
  readonly timeoutMs?: number;
  /** Tries per request and the first pause before a retry (tests shorten it). */
  readonly tries?: number;
  readonly backoffMs?: number;
  readonly warn?: (message: string) => void;
  /** A short line of where the pull is, for a progress display. */
  readonly onProgress?: (line: string) => void;
}

export interface PullResult {
  /** The project folder written. */
  readonly folder: string;
  readonly project: PulledProject;
  readonly files: number;
  readonly requests: number;
  /** Documents answered 304 (unchanged since the earlier pull). */
  readonly notModified: number;
  readonly retries: number;
  /** Bytes of the API answers read (what --max-bytes counts). */
  readonly bytes: number;
  readonly mediaBytes: number;
  readonly mediaReused: number;
  /** Tokens kept from the earlier pull's project.yaml. */
  readonly tokensKept: number;
}

interface Marker {
  readonly cqa_pull: 1;
  readonly base_url: string;
  readonly project: string;
  readonly dialect: DialectName;
  readonly documents: EtagCache;
  readonly media: MediaEtags;
}

const sorted = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

async function readMarker(folder: string): Promise<Marker | undefined> {
  try {
    const m = JSON.parse(await fsp.readFile(join(folder, MARKER), 'utf8')) as Marker;
    return m.cqa_pull === 1 ? m : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `tokens:` someone added to the earlier pull's project.yaml, as its comment says to: a pull
 * that dropped them left the project unreadable without a word (found from outside). The file is
 * read as any content file (a link is refused); one that does not parse keeps nothing, said.
 */
function earlierTokens(folder: string, warn: (message: string) => void): unknown[] | undefined {
  const file = join(folder, 'project.yaml');
  let text: string;
  try {
    text = readContentText({ abs: file, rel: 'project.yaml' });
  } catch (err) {
    // None is nothing to keep; one that cannot be read (a link, not a file, too large) is said.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      warn(`${file}: not read (${(err as Error).message}), so no tokens of it are kept: add them again after this pull`);
    return undefined;
  }
  const { value, problems } = parseYaml(text);
  const tokens = isObject(value) ? value.tokens : undefined;
  if (problems.length > 0 || (tokens !== undefined && !Array.isArray(tokens))) {
    warn(`${file}: its tokens could not be read, so none are kept: add them again after this pull`);
    return undefined;
  }
  return tokens as unknown[] | undefined;
}

/** Whether `folder` may be replaced: missing, empty, or an earlier pull (unless forced). */
async function checkTarget(folder: string, out: string, force: boolean): Promise<Marker | undefined> {
  const names = await fsp.readdir(folder).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    if (err.code === 'ENOTDIR') throw new PullError(`--out ${out} is a file, not a folder: choose another --out`, true);
    throw err;
  });
  const marker = await readMarker(folder);
  if (names.length > 0 && !marker && !force) {
    throw new PullError(
      `${folder} is not empty and not an earlier pull (no ${MARKER}): choose another --out, or pass --force to replace it`,
      true,
    );
  }
  return marker;
}

export async function pull(o: PullOptions): Promise<PullResult> {
  const badId = idProblem('project id', o.project);
  if (badId) throw new PullError(`--project: ${badId}`, true);
  const limits = pullLimits(o.limits);
  if (o.timeoutMs !== undefined && !(o.timeoutMs > 0 && Number.isFinite(o.timeoutMs)))
    throw new PullError(`--timeout must be a number of seconds above 0, got ${String(o.timeoutMs)} ms`, true);
  const folder = join(o.out, o.project);
  const warn = o.warn ?? (() => undefined);
  const progress = o.onProgress ?? (() => undefined);
  await recoverOutput(folder);
  const marker = await checkTarget(folder, o.out, o.force === true);
  // Answers remembered from a pull of the same project from the same API only.
  const same = marker && marker.base_url === o.baseUrl && marker.project === o.project && marker.dialect === o.dialect;
  const fetcher = new Fetcher({
    baseUrl: o.baseUrl,
    token: o.token,
    // elmapi3 names the project in a header on every request.
    ...(o.dialect === 'elmapi3' ? { headers: { 'project-id': o.project } } : {}),
    signal: o.signal,
    previous: same ? marker.documents : {},
    ...(o.tries !== undefined ? { tries: o.tries } : {}),
    ...(o.backoffMs !== undefined ? { backoffMs: o.backoffMs } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.maxDocumentBytes !== undefined ? { maxDocumentBytes: o.maxDocumentBytes } : {}),
    limits,
    onRetry: (path, reason) => progress(`retrying ${path} (${reason})`),
  });
  const read: ReadOptions = {
    fetcher,
    project: o.project,
    collections: o.collections,
    drafts: o.drafts === true,
    pageSize: o.pageSize ?? 100,
    limits,
    warn,
    progress,
  };
  progress(`reading ${o.project} from ${o.baseUrl}`);
  const answered = await READERS[o.dialect](read);
  // A required field some entry comes back without is written without `required`, said per file.
  const project = relaxRequired(recogniseTranslations(answered, warn), (e, c) => `${answered.id}/${entryPath(e, c)}`, warn);

  const suffix = newSuffix();
  const tmp = siblingName(folder, 'tmp', suffix);
  // Made only now, and removed again if the pull fails while it is still empty.
  const made = await makeFolders(o.out);
  try {
    const tokens = marker ? earlierTokens(folder, warn) : undefined;
    let files = await writeTree(
      tmp,
      project,
      `Written by cqa pull (${MARKER} says from where); a later pull replaces this folder but keeps its tokens.`,
      tokens,
    );
    let media = { etags: {} as MediaEtags, bytes: 0, reused: 0 };
    if (o.media) {
      let done = 0;
      media = await downloadMedia(project.media, {
        fetcher,
        into: tmp,
        previousTree: same ? folder : undefined,
        previous: same ? marker.media : {},
        concurrency: o.concurrency ?? 4,
        limits,
        onFile: () => progress(`media ${++done}/${project.media.length}`),
      });
      files += project.media.length;
    } else if (project.media.length > 0) {
      warn(
        `${project.media.length} media files not downloaded (--media downloads them): until they are in ${join(folder, 'media')}, cqa check reports the entries that use them`,
      );
    }
    const written: Marker = {
      cqa_pull: 1,
      base_url: o.baseUrl,
      project: o.project,
      dialect: o.dialect,
      documents: sorted(fetcher.seen),
      media: sorted(media.etags),
    };
    await fsp.writeFile(join(tmp, MARKER), `${markerText(written)}\n`);
    o.signal?.throwIfAborted();
    await swapIn(tmp, folder, suffix);
    return {
      folder,
      project,
      files,
      requests: fetcher.requests,
      notModified: fetcher.notModified,
      retries: fetcher.retries,
      bytes: fetcher.bytes,
      mediaBytes: media.bytes,
      mediaReused: media.reused,
      tokensKept: tokens?.length ?? 0,
    };
  } catch (err) {
    await fsp.rm(tmp, { recursive: true, force: true });
    if (made !== undefined) await fsp.rmdir(made).catch(() => undefined);
    throw err;
  }
}

/** The marker as JSON; answers whose escaped texts outgrow a string (quotes and backslashes count twice) are said to be. */
function markerText(marker: Marker): string {
  try {
    return JSON.stringify(marker, null, 1);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new PullError(
      `the answers are too large to keep in ${MARKER} for the next pull (escaped, they pass V8's 512 MiB string limit): pull fewer collections at a time (--collections), or lower --max-bytes`,
    );
  }
}
