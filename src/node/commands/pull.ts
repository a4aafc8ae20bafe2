// `cqa pull BASE_URL --project ID [--collections a,b] [--out content] [--dialect cqa|elmapi]
// [--drafts] [--media] [--concurrency N] [--token-file FILE] [--force]`: a live content API →
// a content tree (src/node/pull/). The token comes from CQA_TOKEN or a file, never from an argument:
// arguments end up in shell history and in every process list. Ctrl-C leaves the output as it was.
import { open } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { PROJECT_ID } from '../../core/model/identifiers.js';
import { PullError } from '../pull/model.js';
import { pull } from '../pull/pull.js';
import { printable } from '../printable.js';
import { DIALECTS, type DialectName } from '../../core/model/model.js';
import { parseCommandArgs, UsageError } from './args.js';
import { lowerCaseHint, UUID } from '../content/uuid.js';
import { utf16Problem } from '../content/read.js';
import { formatBytes } from './build.js';
import { parseOptions, type CommandSpec } from './help.js';
import { LIMIT_HELP, limitsFromArgs, timeoutFromArgs } from './pull-limits.js';

export const spec: CommandSpec = {
  usage: 'cqa pull BASE_URL --project ID [options]',
  summary:
    'Reads a project from a live content API (cqa, elmapi or elmapi3) and writes it as a content tree (atomically). Token: CQA_TOKEN.',
  args: [['BASE_URL', 'the API address, the part before /api (http://127.0.0.1:4000)']],
  options: {
    project: { type: 'string', value: 'ID', help: 'the project to pull (required; elmapi3: its uuid, sent as the project-id header)' },
    collections: {
      type: 'string',
      value: 'LIST',
      help: 'only these collections, comma-separated (required for --dialect elmapi)',
      fallback: 'all',
    },
    out: { type: 'string', value: 'DIR', help: 'content folder; the project goes to DIR/<project>', fallback: 'content' },
    dialect: { type: 'string', value: 'NAME', help: 'how the API answers: cqa, elmapi or elmapi3', fallback: 'cqa' },
    drafts: { type: 'boolean', help: 'also pull drafts (needs a token with the drafts scope)' },
    media: { type: 'boolean', help: 'download the media files (checked against the size the API states)' },
    concurrency: { type: 'string', value: 'N', help: 'media downloads at once, 1 to 32', fallback: '4' },
    'token-file': { type: 'string', value: 'FILE', help: 'read the token from FILE instead of CQA_TOKEN' },
    force: { type: 'boolean', help: 'replace an output folder that is not an earlier pull' },
    ...LIMIT_HELP,
  },
  examples: [
    'cqa pull http://127.0.0.1:4000 --project demo --out pulled --media   # with CQA_TOKEN set',
    'cqa pull http://127.0.0.1:4000 --dialect elmapi3 --project 3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10 --drafts --media',
  ],
};

const isTerminal = () => process.stderr.isTTY === true;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One status line that rewrites itself on a terminal; nothing otherwise. */
function statusLine() {
  let shown = false;
  return {
    show(line: string) {
      if (!isTerminal()) return;
      shown = true;
      process.stderr.write(`\r\x1b[2K${printable(line).slice(0, (process.stderr.columns || 80) - 1)}`);
    },
    clear() {
      if (shown) process.stderr.write('\r\x1b[2K');
      shown = false;
    },
  };
}

/** More than any token file holds: reading stops there (`--token-file /dev/zero` would never end). */
const TOKEN_FILE_BYTES = 64 * 1024;

async function readToken(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return process.env.CQA_TOKEN || undefined;
  const bytes = await readAtMost(file, TOKEN_FILE_BYTES + 1).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`--token-file: cannot read '${file}' (${err.code ?? err.message})`);
  });
  if (bytes.length > TOKEN_FILE_BYTES)
    throw new UsageError(`--token-file: '${file}' is larger than a token file can be (64 KiB): name the file that holds the token`);
  // PowerShell's `>` writes UTF-16: the token would have a NUL between its characters.
  const utf16 = utf16Problem(bytes);
  if (utf16) throw new UsageError(`--token-file: '${file}' is ${utf16.message}`);
  const token = bytes.toString('utf8').trim();
  if (token === '' || /\s/.test(token)) throw new UsageError(`--token-file: '${file}' must hold the token alone on one line`);
  return token;
}

/** The file's first `limit` bytes (a pipe, such as `<(pass show token)`, is read to its end or the limit). */
async function readAtMost(file: string, limit: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(limit);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, limit - length, null);
      length += bytesRead;
      if (bytesRead === 0 || length === limit) return buffer.subarray(0, length);
    }
  } finally {
    await handle.close();
  }
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, parseOptions(spec));
  const baseUrl = positionals[0];
  if (!baseUrl) throw new UsageError('missing BASE_URL: the API address, e.g. cqa pull http://127.0.0.1:4000 --project demo');
  if (!/^https?:\/\/[^/\s]+[^\s]*$/.test(baseUrl))
    throw new UsageError(`BASE_URL must be an http(s) URL (the part before /api), got '${baseUrl}'`);
  if (!URL.canParse(baseUrl))
    throw new UsageError(`BASE_URL '${baseUrl}' is not a valid URL: check the host name and the port (1 to 65535)`);
  if (/[?#]/.test(baseUrl))
    throw new UsageError(`BASE_URL must have no query (?…) or fragment (#…): pass the address before /api alone, got '${baseUrl}'`);
  if (/\/api\/?$/.test(baseUrl)) throw new UsageError(`BASE_URL is the part before /api: use '${baseUrl.replace(/\/api\/?$/, '')}'`);
  const project = values.project as string | undefined;
  if (!project) throw new UsageError('--project ID is required');
  if (!PROJECT_ID.test(project)) throw new UsageError(`--project '${project}' is not a project id (letters, digits, _ and -)`);
  const dialect = (values.dialect as string | undefined) ?? 'cqa';
  if (!(DIALECTS as readonly string[]).includes(dialect))
    throw new UsageError(`--dialect must be ${DIALECTS.join(' or ')}, got '${dialect}'`);
  if (dialect === 'elmapi3' && !UUID.test(project)) {
    throw new UsageError(
      `--dialect elmapi3 needs --project to be the project uuid (36 characters, lower-case, hyphenated; ElmapiCMS sends it as the project-id header), got '${project}'${lowerCaseHint(project, '--project ')}`,
    );
  }
  const collections = (values.collections as string | undefined)
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // An empty list would pull nothing and replace an earlier pull with an empty project.
  if (collections?.length === 0)
    throw new UsageError(
      `--collections names no collection (got '${values.collections as string}'): list them comma-separated, e.g. --collections posts,authors, or leave the option out for all`,
    );
  if (dialect === 'elmapi' && !collections?.length)
    throw new UsageError('--dialect elmapi needs --collections a,b: the elmapi project answer lists no collections');
  const rawConcurrency = values.concurrency as string | undefined;
  const concurrency = rawConcurrency === undefined ? 4 : /^\d+$/.test(rawConcurrency) ? Number(rawConcurrency) : NaN;
  if (!(concurrency >= 1 && concurrency <= 32))
    throw new UsageError(`--concurrency must be an integer from 1 to 32, got '${rawConcurrency}'`);
  const limits = limitsFromArgs(values);
  const timeoutMs = timeoutFromArgs(values);
  const token = await readToken(values['token-file'] as string | undefined);
  const givenOut = (values.out as string | undefined) ?? 'content';
  const out = resolve(givenOut);
  // Paths are shown as given: relative to here for a relative --out, absolute for an absolute one.
  const show = (path: string) => (isAbsolute(givenOut) ? path : relative(process.cwd(), path) || '.');

  const controller = new AbortController();
  const interrupt = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const status = statusLine();
  const warnings: string[] = [];
  try {
    const r = await pull({
      baseUrl,
      project,
      dialect: dialect as DialectName,
      collections,
      out,
      token,
      drafts: values.drafts === true,
      media: values.media === true,
      concurrency,
      limits,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      force: values.force === true,
      signal: controller.signal,
      warn: (m) => warnings.push(printable(m)),
      onProgress: (line) => status.show(line),
    });
    status.clear();
    for (const w of warnings) console.error(`warning: ${w}`);
    const entries = r.project.collections.reduce((n, c) => n + c.entries.length, 0);
    const shown = show(r.folder);
    // Reused (304) files are unchanged, not downloaded: their bytes are not counted.
    const mediaNote = [r.mediaBytes > 0 ? `${formatBytes(r.mediaBytes)} downloaded` : '', r.mediaReused ? `${r.mediaReused} unchanged` : '']
      .filter(Boolean)
      .join(', ');
    console.log(
      `✓ pulled ${project} into ${shown}: ${plural(r.project.collections.length, 'collection', 'collections')}, ${plural(entries, 'entry', 'entries')}, ${r.project.media.length} media` +
        (mediaNote ? ` (${mediaNote})` : '') +
        `; ${r.requests} requests${r.notModified ? `, ${r.notModified} unchanged (304)` : ''}${r.retries ? `, ${r.retries} retried` : ''}`,
    );
    if (r.tokensKept > 0)
      console.log(`  ${r.tokensKept === 1 ? '1 token' : `${r.tokensKept} tokens`} kept from the earlier ${shown}/project.yaml`);
    else if (!r.project.public)
      console.log(`  no tokens were copied: 'cqa token create --project ${r.project.id}' prints the lines to add to ${shown}/project.yaml`);
    return 0;
  } catch (err) {
    status.clear();
    if (controller.signal.aborted) {
      console.error(`cqa pull: interrupted; ${show(resolve(out, project))} left as it was`);
      return 130;
    }
    if (err instanceof PullError) throw err.usage ? new UsageError(printable(err.message)) : new PullError(printable(err.message));
    throw err instanceof Error ? Object.assign(err, { message: printable(err.message) }) : err;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}
