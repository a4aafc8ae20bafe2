// `cqa build [content] [--out dist] [--base-url URL] [--drafts] [--include-private] [--snapshot FILE]
// [--precompress none|gzip|br|all]`:
// content tree → static `dist/`, and/or the portable snapshot file for edge runtimes (given alone,
// --snapshot writes only that file; the file holds token hashes and drafts, so it is never written
// inside --out).
// Loads and validates like buildSnapshot, in the load process for a large tree (src/node/load-path.ts), prints
// every content error as `file:line: field: message` and exits 1 leaving the previous output
// untouched; otherwise writes the tree atomically with writeDist. Progress is one updating
// line on stderr when it is a terminal; NO_COLOR is honoured.
import { realpathSync } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { formatIssue, warningLines } from '../content/issues.js';
import { printable } from '../printable.js';
import { buildOutputIsolated } from '../load-path.js';
import { PRECOMPRESS_CHOICES, type Precompress } from '../output/dist-compression.js';
import { recoverOutput } from '../output/dist-swap.js';
import { isBuildManifest } from '../output/build-manifest.js';
import { HOST_CHOICES } from '../output/hosts/index.js';
import { DEFAULT_API_CACHE_CONTROL, DEFAULT_MEDIA_CACHE_CONTROL } from '../output/hosts/policy.js';
import { baseUrlOption, choiceOption, headerOption, parseCommandArgs, TIMESTAMPS_SPEC, timestampsOption, UsageError } from './args.js';
import { contentFolder } from './content-folder.js';
import { parseOptions, type CommandSpec } from './help.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function colours(stream: NodeJS.WriteStream) {
  const on = stream.isTTY === true && !(process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '');
  const wrap = (code: number) => (s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { red: wrap(31), yellow: wrap(33), green: wrap(32) };
}

/** 1234567 → '1.2 MB' (decimal units, like most file managers). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/** A single updating status line on a terminal (throttled); nothing when stderr is not a TTY. */
class Progress {
  private last = 0;
  private shown = false;
  private readonly on = process.stderr.isTTY === true;

  update(label: string, done: number, total: number): void {
    if (!this.on || total < 200) return;
    const now = Date.now();
    if (done < total && now - this.last < 80) return;
    this.last = now;
    this.shown = true;
    process.stderr.write(`\r\x1b[2K${label} ${done}/${total}`);
  }

  clear(): void {
    if (this.shown) process.stderr.write('\r\x1b[2K');
    this.shown = false;
  }
}

function displayPath(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') ? rel : p;
}

export const spec: CommandSpec = {
  usage: 'cqa build [content] [options]',
  summary: 'Validates the content and writes every answer that needs no query as a static file (atomically).',
  args: [['content', 'the content folder (default: ./content)']],
  options: {
    out: { type: 'string', value: 'DIR', help: 'output folder (created with its parents; replaced as a whole)', fallback: 'dist' },
    'base-url': { type: 'string', value: 'URL', help: "prefix of media full_url (an http(s) URL or a path starting with '/')" },
    drafts: { type: 'boolean', help: 'include drafts (for a preview deployment)' },
    'include-private': { type: 'boolean', help: 'publish projects that need a token too (a static host checks none)' },
    precompress: {
      type: 'string',
      value: 'none|gzip|br|all',
      help: 'write .gz/.br siblings of every JSON document, for hosts that serve precompressed files (nginx gzip_static, Caddy precompressed); Netlify and Cloudflare Pages compress by themselves and count files',
      fallback: 'none',
    },
    host: {
      type: 'string',
      value: HOST_CHOICES.join('|'),
      help: "also write that host's configuration into the output (_nginx.conf, _Caddyfile, serve.json, 404.html for Cloudflare Pages); docs/hosting.md",
      fallback: 'netlify (_headers, _redirects)',
    },
    'api-cache-control': {
      type: 'string',
      value: 'VALUE',
      help: 'Cache-Control of the API documents in _headers and the host files',
      fallback: DEFAULT_API_CACHE_CONTROL,
    },
    'media-cache-control': {
      type: 'string',
      value: 'VALUE',
      help: 'Cache-Control of media files and thumbnails',
      fallback: DEFAULT_MEDIA_CACHE_CONTROL,
    },
    timestamps: TIMESTAMPS_SPEC,
    snapshot: {
      type: 'string',
      value: 'FILE',
      help: 'also write the portable snapshot for an edge worker (alone: only the snapshot; never inside --out)',
    },
    project: {
      type: 'string',
      value: 'ID',
      help: 'build this project alone; an elmapi3 project (left out without it) at the v3 paths /api, /api/<slug>, /api/files…',
    },
  },
  examples: [
    'cqa build content --out dist --base-url https://cdn.example.com',
    'cqa build content --include-private   # the sample: demo needs a token',
    'cqa build content --snapshot snapshot.json   # for content-query-api/edge',
    'cqa build content --precompress all   # .gz/.br siblings for nginx gzip_static/brotli_static',
    'cqa build content --project 3f6c1a52-8b0e-4d7a-9c41-2e5f7b8a9d10 --include-private --out dist-shop3   # an elmapi3 project',
  ],
};

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, parseOptions(spec));
  const root = await contentFolder(positionals[0] ?? 'content', 'build');
  const out = resolve((values.out as string | undefined) ?? 'dist');
  const snapshotFile = values.snapshot === undefined ? undefined : resolve(values.snapshot as string);
  const writeTree = values.out !== undefined || snapshotFile === undefined;
  const baseUrl = baseUrlOption(values['base-url'] as string | undefined) ?? '';
  const precompress = precompressOption(values.precompress as string | undefined);
  const timestamps = timestampsOption(values.timestamps as string | undefined);
  const host = choiceOption('host', values.host as string | undefined, HOST_CHOICES, 'netlify');
  const cacheControl = {
    api: cacheControlOption('api-cache-control', values['api-cache-control'] as string | undefined, DEFAULT_API_CACHE_CONTROL),
    media: cacheControlOption('media-cache-control', values['media-cache-control'] as string | undefined, DEFAULT_MEDIA_CACHE_CONTROL),
  };
  const absRoot = resolve(root);
  // By real paths too: a link to a folder inside --out is that folder (found from outside: deleted).
  const [realRoot, realOut] = [realOf(absRoot), realOf(out)];
  const overlap = (a: string, b: string) => a === b || a.startsWith(b + sep) || b.startsWith(a + sep);
  if (writeTree && (overlap(absRoot, out) || overlap(realRoot, realOut))) {
    throw new UsageError(`--out ${displayPath(out)} must be outside the content folder ${root} (and not contain it)`);
  }
  if (snapshotFile !== undefined) await checkSnapshotFile(snapshotFile, writeTree ? out : undefined, absRoot);
  // What a failed build leaves untouched, for the messages.
  const targets = [...(writeTree ? [displayPath(out)] : []), ...(snapshotFile ? [displayPath(snapshotFile)] : [])].join(' and ');

  const started = performance.now();
  const err = colours(process.stderr);
  // First, before content errors can end the run: put back a tree an interrupted build moved aside.
  if (writeTree && (await recoverOutput(out)))
    console.error(`${err.yellow('note:')} restored ${displayPath(out)}, which an interrupted build had moved aside`);
  const progress = new Progress();
  let code = 0;
  // The build runs in the load process for a large tree (src/node/load-path.ts): its events are printed here.
  await buildOutputIsolated(
    root,
    {
      drafts: values.drafts === true,
      ...(timestamps ? { timestamps } : {}),
      baseUrl,
      ...(writeTree ? { out } : {}),
      precompress,
      host,
      cacheControl,
      includePrivate: values['include-private'] === true,
      ...(snapshotFile !== undefined ? { snapshotFile } : {}),
      ...(values.project !== undefined ? { project: values.project as string } : {}),
    },
    (event) => {
      if (event.kind === 'progress') return progress.update(event.stage, event.done, event.total);
      progress.clear();
      const ok = colours(process.stdout).green('✓');
      if (event.kind === 'loaded') {
        const { issues, warnings, needToken, leftOut } = event;
        for (const w of warningLines(warnings)) console.error(`${err.yellow('warning:')} ${w}`);
        if (issues.length === 0 && leftOut.length > 0) {
          console.error(
            `${err.yellow('note:')} left out of ${displayPath(out)}: ${leftOut.map((p) => p.id).join(', ')} (dialect elmapi3): a static host cannot read the project-id header that names such a project, so each is built alone at the v3 paths: ${leftOut[0]?.command}`,
          );
        }
        if (issues.length > 0) {
          for (const e of issues) console.error(formatIssue(e));
          const files = new Set(issues.map((i) => i.file)).size;
          console.error(
            err.red(
              `${plural(issues.length, 'error')} in ${plural(files, 'file')}; ${targets} ${writeTree && snapshotFile ? 'were' : 'was'} not changed`,
            ),
          );
          code = 1;
        } else if (needToken.length > 0 && values['include-private'] !== true) {
          console.error(
            err.red(
              `cqa build: ${plural(needToken.length, 'project')} need${needToken.length === 1 ? 's' : ''} a token (${needToken.join(', ')}), and a static host checks none: `,
            ) +
              `anyone could read ${needToken.length === 1 ? 'it' : 'them'} from ${displayPath(out)}. Set \`public: true\` in project.yaml, or pass --include-private ` +
              `to publish ${needToken.length === 1 ? 'it' : 'them'} anyway (only for a host that checks access itself), or use --snapshot alone for an edge worker; ${targets} ${writeTree && snapshotFile ? 'were' : 'was'} not changed`,
          );
          code = 1;
        } else if (needToken.length > 0) {
          console.error(
            `${err.yellow('warning:')} --include-private: ${needToken.join(', ')} will be readable by anyone who can read ${displayPath(out)} (no token is checked there)`,
          );
        }
      } else if (event.kind === 'snapshot') {
        console.log(
          `${ok} wrote the snapshot of ${event.entries} ${event.entries === 1 ? 'entry' : 'entries'} (${formatBytes(event.bytes)}) to ${displayPath(event.file)}`,
        );
        if (event.worldReadable) {
          console.error(
            `${err.yellow('warning:')} ${displayPath(event.file)} is readable by every user of this machine; it holds token hashes and drafts (chmod 600 it, keep it out of anything published)`,
          );
        }
      } else if (event.kind === 'failed') {
        const unchanged = event.stage === 'snapshot' ? `${targets} ${writeTree ? 'were' : 'was'}` : `${displayPath(out)} was`;
        console.error(err.red(`cqa build: ${printable(event.message)}; ${unchanged} not changed`));
        code = event.usage ? 2 : 1;
      } else {
        const seconds = ((performance.now() - started) / 1000).toFixed(2);
        console.log(
          `${ok} wrote ${plural(event.files, 'file')} (${formatBytes(event.bytes)}) to ${displayPath(out)}${sep} in ${seconds} s`,
        );
      }
    },
  );
  progress.clear();
  return code;
}

/** A Cache-Control value: printable, and no quote (it is written into nginx and Caddy configurations). */
function cacheControlOption(name: string, value: string | undefined, fallback: string): string {
  const v = headerOption(name, value) ?? fallback;
  if (v.trim() === '' || v.includes('"'))
    throw new UsageError(`--${name} must be a Cache-Control value without quotes, e.g. 'public, max-age=60', got ${JSON.stringify(v)}`);
  return v;
}

function precompressOption(value: string | undefined): Precompress {
  if (value === undefined) return 'none';
  if ((PRECOMPRESS_CHOICES as readonly string[]).includes(value)) return value as Precompress;
  throw new UsageError(
    `--precompress must be one of ${PRECOMPRESS_CHOICES.join(', ')}, got '${value}' (none: for Netlify and Cloudflare Pages; gzip/br/all: for a server that sends precompressed files)`,
  );
}

/**
 * --snapshot FILE must not land where it would be published (inside --out) or read as content,
 * and must name a file.
 */
async function checkSnapshotFile(file: string, out: string | undefined, contentRoot: string): Promise<void> {
  const real = realOf(file);
  const within = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);
  const inside = (dir: string) => within(file, dir) || within(real, realOf(dir));
  // Inside a tree an earlier build wrote, without --out (found from outside: published with it).
  const tree = builtTreeAbove(dirname(real));
  if (tree !== undefined)
    throw new UsageError(
      `--snapshot ${displayPath(file)} is inside ${displayPath(tree)}, a tree cqa build wrote: the snapshot holds token hashes and drafts, and that tree is meant to be published; write it elsewhere (e.g. --snapshot snapshot.json)`,
    );
  if (out !== undefined && inside(out)) {
    throw new UsageError(
      `--snapshot ${displayPath(file)} is inside --out ${displayPath(out)}: the snapshot holds token hashes and drafts, and everything under --out is meant to be published; write it elsewhere (e.g. --snapshot snapshot.json)`,
    );
  }
  if (inside(contentRoot))
    throw new UsageError(`--snapshot ${displayPath(file)} must be outside the content folder ${displayPath(contentRoot)}`);
  const info = await lstat(file).catch(() => undefined);
  if (info?.isDirectory())
    throw new UsageError(`--snapshot ${displayPath(file)} is a folder; give a file name (e.g. --snapshot snapshot.json)`);
  // The path is replaced whole, a link by a file: only a snapshot an earlier build wrote, or an
  // empty file (found from outside: `--snapshot package.json`, and /dev/null, were replaced).
  if (info !== undefined && !info.isFile())
    throw new UsageError(
      `--snapshot ${displayPath(file)} is not a regular file (a link, a device, a pipe), so it would be replaced by one; give a new file name (e.g. --snapshot snapshot.json)`,
    );
  if (info !== undefined && info.size > 0 && !(await isSnapshotFile(file)))
    throw new UsageError(
      `--snapshot ${displayPath(file)} exists and is not a snapshot cqa build wrote, so it would be replaced; give a new file name (e.g. --snapshot snapshot.json), or delete the file first`,
    );
  const parent = await stat(dirname(file)).catch(() => undefined);
  if (!parent?.isDirectory())
    throw new UsageError(`--snapshot ${displayPath(file)}: the folder ${displayPath(dirname(file))} does not exist`);
}

/** Whether the file starts as `snapshotText()` starts every snapshot. */
async function isSnapshotFile(file: string): Promise<boolean> {
  // Imported here: portable.js brings the whole snapshot code, which the CLI otherwise leaves to the load process.
  const { SNAPSHOT_FORMAT } = await import('../../core/snapshot/portable.js');
  const head = `{"format":${JSON.stringify(SNAPSHOT_FORMAT)},`;
  const handle = await open(file, 'r').catch(() => undefined);
  if (handle === undefined) return false;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(head.length), 0, head.length, 0);
    return buffer.toString('utf8', 0, bytesRead) === head;
  } finally {
    await handle.close();
  }
}

/** The path with every link resolved: of the path itself, or of its nearest existing folder above. */
function realOf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realOf(parent), basename(path));
  }
}

/** The nearest folder at or above `dir` holding the manifest.json a build writes. */
function builtTreeAbove(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (isBuildManifest(join(d, 'manifest.json'))) return d;
    if (dirname(d) === d) return undefined;
  }
}
