// The real servers the hosting recipes are tested against, each started on a free 127.0.0.1 port
// with its files (config, pid, logs, temp) in a temp dir of its own, and stopped by its pid:
// Debian's nginx and Caddy, `serve` from node_modules, Cloudflare's asset server in miniflare.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const NGINX = process.env.CQA_NGINX ?? '/usr/sbin/nginx';
export const CADDY = process.env.CQA_CADDY ?? '/usr/bin/caddy';
const SERVE = resolve('node_modules/serve/build/main.js');

export interface RunningHost {
  readonly url: string;
  close(): Promise<void>;
}

/** Why a server cannot be tested here (its binary is absent), or undefined. */
export function missing(binary: string, apt: string): string | undefined {
  return existsSync(binary)
    ? undefined
    : `${binary} not found: install Debian's ${apt} (apt-get install -y --no-install-recommends ${apt}); .ci/run does`;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/** Resolves once `url` answers (any status), rejects with the server's log when it exits or 20 s pass. */
async function answering(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 20_000;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < until) {
    if (exited) throw new Error(`the server stopped at start-up:\n${log()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`the server did not answer within 20 s:\n${log()}`);
}

/** Stops the one process we started, by its pid: SIGTERM, then SIGKILL after 5 s. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      ok();
    });
    child.kill('SIGTERM');
  });
}

async function run(command: string, args: string[], dir: string, url: string, env: NodeJS.ProcessEnv = {}): Promise<RunningHost> {
  const out = join(dir, 'output.log');
  let text = '';
  const child = spawn(command, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  child.stdout?.on('data', (b: Buffer) => (text = (text + b.toString()).slice(-20_000)));
  child.stderr?.on('data', (b: Buffer) => (text = (text + b.toString()).slice(-20_000)));
  const log = () => {
    const errorLog = join(dir, 'error.log');
    return text + (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '');
  };
  try {
    await answering(url, child, log);
  } catch (err) {
    await stop(child);
    writeFileSync(out, text);
    throw err;
  }
  return {
    url,
    close: async () => {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The fenced block after `<!-- recipe: <name> … -->` in docs/hosting.md: what the page tells people to write. */
export function recipe(name: string): string {
  const docs = readFileSync('docs/hosting.md', 'utf8');
  const block = new RegExp(`<!-- recipe: ${name} [^\\n]*\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(docs)?.[1];
  if (block === undefined) throw new Error(`docs/hosting.md has no recipe block for ${name}`);
  return block;
}

/** docs/hosting.md's nginx server block, for `dist` on 127.0.0.1:`port`. */
const nginxRecipe = (dist: string) => (port: number) =>
  recipe('nginx').replaceAll('/srv/dist', dist).replace('listen 80;', `listen 127.0.0.1:${port};`);

/**
 * nginx, not a daemon, on its own config: the http block a distribution's nginx.conf has
 * (mime.types), and a server block — by default the recipe of docs/hosting.md.
 */
export async function startNginx(dist: string, server: (port: number) => string = nginxRecipe(dist)): Promise<RunningHost> {
  const dir = mkdtempSync(join(tmpdir(), 'cqa-nginx-'));
  const port = await freePort();
  const conf = [
    'daemon off;',
    // Started as root, nginx would run its worker as nobody, who cannot read a 0700 temp dir.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log;`,
    'events { worker_connections 64; }',
    'http {',
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
    server(port),
    '}',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'nginx.conf'), conf);
  return run(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], dir, `http://127.0.0.1:${port}`);
}

/** Caddy with the admin API off, no automatic HTTPS, its storage in the temp dir. */
export async function startCaddy(dist: string): Promise<RunningHost> {
  const dir = mkdtempSync(join(tmpdir(), 'cqa-caddy-'));
  const port = await freePort();
  const conf = [
    '{',
    '    admin off',
    '    auto_https off',
    // A site address names the host it matches, not the address it listens on.
    '    default_bind 127.0.0.1',
    `    storage file_system ${dir}/data`,
    '}',
    // docs/hosting.md's site block, for `dist` on 127.0.0.1:`port` over plain HTTP.
    recipe('caddy').replaceAll('/srv/dist', dist).replace('example.com', `http://127.0.0.1:${port}`),
  ].join('\n');
  writeFileSync(join(dir, 'Caddyfile'), conf);
  const env = { HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
  return run(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], dir, `http://127.0.0.1:${port}`, env);
}

/** `npx serve dist` as a user runs it (it reads dist/serve.json); no update check, no clipboard. */
export async function startServe(dist: string): Promise<RunningHost> {
  const dir = mkdtempSync(join(tmpdir(), 'cqa-serve-'));
  const port = await freePort();
  return run(
    process.execPath,
    [SERVE, dist, '--listen', `tcp://127.0.0.1:${port}`, '--no-clipboard', '--no-request-logging'],
    dir,
    `http://127.0.0.1:${port}`,
    {
      NO_UPDATE_CHECK: '1',
    },
  );
}

/**
 * Cloudflare's asset server (workers-shared, what Pages and Workers Static Assets run) in
 * miniflare: `_redirects`, `_headers` and the nearest 404.html, offline. `warnings` gets what its
 * parser reports (an invalid `_redirects` rule is logged there, as `wrangler pages dev` does).
 */
/** `htmlHandling`: Pages' own default is 'auto-trailing-slash' (`/x.html` redirects to `/x`). */
export async function startPages(
  dist: string,
  warnings: string[],
  htmlHandling: 'none' | 'auto-trailing-slash' = 'none',
): Promise<RunningHost> {
  const { Log, LogLevel, Miniflare } = await import('miniflare');
  class Collect extends Log {
    override warn(message: string): void {
      warnings.push(message);
    }
    override info(message: string): void {
      if (/invalid/i.test(message)) warnings.push(message);
    }
  }
  const port = await freePort();
  const mf = new Miniflare({
    modules: true,
    // Assets only: the worker is never reached (has_user_worker: false).
    script: 'export default { fetch() { return new Response("no worker", { status: 500 }) } }',
    compatibilityDate: '2025-01-01',
    host: '127.0.0.1',
    port,
    log: new Collect(LogLevel.INFO),
    assets: {
      directory: dist,
      assetConfig: { not_found_handling: '404-page', html_handling: htmlHandling },
      routerConfig: { has_user_worker: false },
    },
  });
  const url = (await mf.ready).origin;
  return { url, close: () => mf.dispose() };
}
