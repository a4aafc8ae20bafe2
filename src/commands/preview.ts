// `cqa preview [dist] [--port 4173] [--host 127.0.0.1]`: serves a build output as a static host
// (Netlify, Cloudflare Pages) would — `/api/demo/posts` from `api/demo/posts/index.json`, the
// precompressed .br/.gz siblings, the headers of `_headers` — with sirv. Request paths are checked
// before they reach the file system: no `..`, no encoded slash or backslash, no NUL.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import sirv from 'sirv';
import { hostOption, parseCommandArgs, portOption, UsageError } from './args.js';
import { explainListenError } from './errors.js';

export interface PreviewOptions {
  /** The build output directory. */
  readonly dir: string;
  /** Default 4173; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
}

export interface PreviewServer {
  readonly url: string;
  close(): Promise<void>;
}

interface HeaderRule {
  readonly pattern: RegExp;
  readonly headers: readonly [string, string][];
}

/** Parses a Netlify/Cloudflare `_headers` file: a path pattern line, then indented `Name: value` lines. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: { pattern: RegExp; headers: [string, string][] }[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    const rule = rules[rules.length - 1];
    if (rule && colon > 0) rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/**
 * The decoded path of a request, or null when it must not reach the file system: malformed
 * percent-encoding, a `.`/`..` or empty segment, an encoded `/` or `\`, a NUL byte.
 */
export function safePathname(url: string): string | null {
  const q = url.search(/[?#]/);
  const raw = q === -1 ? url : url.slice(0, q);
  if (!raw.startsWith('/') || raw.length > 8192) return null;
  const segments = raw.split('/').slice(1);
  const decoded: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as string;
    if (s === '' && i === segments.length - 1) {
      decoded.push('');
      continue;
    }
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      return null;
    }
    if (d === '' || d === '.' || d === '..' || /[/\\\0]/.test(d)) return null;
    decoded.push(d);
  }
  return `/${decoded.join('/')}`;
}

/** Files that static hosts read as configuration and never serve. */
const HIDDEN = new Set(['/_headers', '/_redirects']);

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not Found\n');
}

export function previewHandler(dir: string): (req: IncomingMessage, res: ServerResponse) => void {
  const root = resolve(dir);
  const headersPath = resolve(root, '_headers');
  const rules = existsSync(headersPath) ? parseHeadersFile(readFileSync(headersPath, 'utf8')) : [];
  const common = { dev: true, etag: true, dotfiles: false, onNoMatch: (_: IncomingMessage, res: ServerResponse) => notFound(res) };
  // API paths are directories with index.json (the `_redirects` rewrite); media files are served as they are.
  const api = sirv(root, {
    ...common,
    extensions: ['json'],
    gzip: true,
    brotli: true,
    setHeaders: (res, pathname) => {
      for (const rule of rules) if (rule.pattern.test(pathname)) for (const [k, v] of rule.headers) res.setHeader(k, v);
    },
  });
  const files = sirv(root, {
    ...common,
    extensions: [],
    setHeaders: (res, pathname) => {
      for (const rule of rules) if (rule.pattern.test(pathname)) for (const [k, v] of rule.headers) res.setHeader(k, v);
    },
  });
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed\n');
      return;
    }
    const pathname = safePathname(req.url ?? '/');
    if (pathname === null || HIDDEN.has(pathname)) return notFound(res);
    // sirv reads `req._parsedUrl` (@polka/url's cache) and decodeURI()s a pathname holding '%':
    // hand it the checked, fully decoded path with '%' escaped, so it finds exactly that file.
    (req as IncomingMessage & { _parsedUrl: unknown })._parsedUrl = {
      pathname: pathname.replace(/%/g, '%25'),
      search: '',
      query: undefined,
      hash: undefined,
      raw: req.url,
    };
    (pathname.startsWith('/media/') ? files : api)(req, res);
  };
}

/** Starts the preview server; `port: 0` picks a free port (the real one is in `url`). */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const dir = resolve(options.dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${options.dir} is not a directory; run cqa build first`);
  const host = options.host ?? '127.0.0.1';
  const server = createServer(previewHandler(dir));
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 4173, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    port: { type: 'string' },
    host: { type: 'string' },
  });
  const dir = positionals[0] ?? 'dist';
  const port = portOption(values.port as string | undefined, 4173);
  const host = hostOption(values.host as string | undefined, '127.0.0.1');
  const preview = await startPreview({ dir, port, host }).catch((err: unknown) => {
    throw explainListenError(err, host, port);
  });
  console.log(`Previewing ${dir} at ${preview.url}  (try ${preview.url}/openapi.json)`);
  const stop = () => {
    void preview.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => undefined); // runs until a signal
}
