// startServer(): the mock server as a library call, for contract tests and for `cqa serve`.
import { existsSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { loadSnapshotIsolated } from '../load-path.js';
import type { TimestampSource } from '../content/git-times.js';
import { openParseCache } from '../content/parse-cache.js';
import { ContentError, formatIssue, warningLines } from '../content/issues.js';
import { CANNOT_READ } from '../content/file-problem.js';
import { printable, printableLines } from '../printable.js';
import { createSnapshot } from '../../core/snapshot/create.js';
import type { ContentIssue } from '../../core/model/model.js';
import type { Snapshot } from '../../core/model/types.js';
import { checkControls, Controls } from '../../core/http/controls.js';
import { HttpCore, type HttpOptions } from '../../core/http/core.js';
import { defaultEngine } from '../../core/http/engine.js';
import { elmapi3Routes, strictElmapi3Routes } from '../../core/http/elmapi3/handler.js';
import { nodeExplorer } from './explorer.js';
import { answerClientError, closeAfterBody, refuseConnect } from './connect.js';
import { ALLOWED_METHODS } from '../../core/http/cors.js';
import type { ContractControls } from '../../core/http/contract-controls.js';
import { isJournaled, type JournaledRequest, Journal, logLine, type RequestRecord } from '../../core/http/journal.js';
import { bothSources, checkOptions, HTTP_KEYS, HTTP_KINDS, optionKeys, type OptionKind, refuseTogether } from '../../core/http/options.js';
import { contentOption } from '../content/content-option.js';
import { isContentTree, writeContentTree, type ContentTree, type WrittenTree } from '../content/tree.js';
import { Overrides } from '../../core/http/overrides.js';
import { RequestWaiters } from '../../core/http/request-waiter.js';
import { createNodeListener, nodePlatform } from './node.js';
import { reportingSlowQueries } from './slow-query.js';
import { CONNECTIONS_CHECK_MS } from './timeouts.js';
import { hostAllowed, hostRefusal, isLoopback } from './host-check.js';

// node:http is taken as Node's own module, not imported: importing it makes an ES module facade that
// reads every export, and on Node 22+ one of them (WebSocket) loads undici (docs/performance.md#start-up).
const { createServer } = process.getBuiltinModule('node:http');

/** `elmapi3` is not among them: the server always answers elmapi3 projects (createHandler opts in). */
export interface StartServerOptions extends Omit<HttpOptions, 'elmapi3'> {
  /**
   * A content folder to build and serve (default './content' when no snapshot is given) — a path
   * or a file: URL (`new URL('./content/', import.meta.url)`) — or the
   * tree itself: `{ 'demo/project.yaml': 'id: demo\n…', 'demo/posts/a.md': '---\ntitle: A\n---\n' }`
   * (written to a private temp folder, removed on close: docs/contract-tests.md#in-memory-fixtures).
   */
  readonly content?: string | URL | ContentTree;
  /** A snapshot to serve as is, instead of `content` (not both; nor with watch, parseCache, timestamps, baseUrl). */
  readonly snapshot?: Snapshot;
  /** Default 0: a free port (see `url`); or its decimal text, as an environment variable holds it (`process.env.PORT ?? 0`). */
  readonly port?: number | string;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /**
   * Host names a loopback server answers besides localhost and IP addresses (`'.example.test'`:
   * every name under it). Others get 403 `host_not_allowed` (DNS rebinding: docs/security.md).
   */
  readonly allowedHosts?: readonly string[];
  /** Prefix of media `full_url`s (applied when `content` is built). */
  readonly baseUrl?: string;
  /** Rebuild on every change under `content` (a folder) and swap the snapshot atomically. */
  readonly watch?: boolean;
  /** Default true: no request log, no warnings at start, no line per reload (content errors are always said). */
  readonly quiet?: boolean;
  /** A text line per answered request, to `log` (default: when not quiet). `cqa serve --log json` logs JSON instead. */
  readonly requestLog?: boolean;
  /** Where request lines and watch reports go (default console.log). */
  readonly log?: (line: string) => void;
  /** How many requests `requests()` keeps, the oldest dropped first (default 1000; 0: none). */
  readonly journal?: number;
  /** Called with each request's record once it is answered (what `cqa serve --log json` prints). */
  readonly onRequest?: (record: RequestRecord) => void;
  /** Called after every rebuild under `watch` (given without `watch`: a TypeError). */
  readonly onReload?: (event: ReloadEvent) => void;
  /** Watch debounce in ms (default 25; given without `watch`: a TypeError). */
  readonly debounce?: number;
  /** Default true: the explorer page for browsers at `/` (docs/explorer.md); false: `/` stays a 404. */
  readonly ui?: boolean;
  /**
   * Every `elmapi3` project strict, as `strict: true` in its project.yaml makes it: what the real
   * API silently accepts is answered 422 in Laravel's validation shape (`cqa serve --strict`).
   */
  readonly strict?: boolean;
  /**
   * Keep what the files parse to in `<content>/.cqa-cache/` and start from it next time (default
   * false; `cqa serve` turns it on). A content folder only, not with `watch`. See docs/performance.md#start-up.
   */
  readonly parseCache?: boolean;
  /**
   * Called once its answer is sent, after a query that kept the engine busy over 250 ms (it built
   * large indexes). `cqa serve` collects garbage then; the library never does.
   */
  readonly onSlowQuery?: (ms: number) => void;
  /** Where created_at/updated_at come from when an entry sets none (LoadOptions.timestamps; default git inside a work tree). */
  readonly timestamps?: TimestampSource;
}

export type ReloadEvent =
  | { readonly ok: true; readonly snapshot: Snapshot; readonly ms: number; readonly changed: boolean }
  | { readonly ok: false; readonly issues: readonly ContentIssue[]; readonly ms: number };

export interface RunningServer extends ContractControls {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /** Rebuild from `content` now (what --watch does on a change). */
  reload(): Promise<ReloadEvent>;
  /**
   * Stop accepting, let requests in flight finish, stop watching. Answers held back by a delay go
   * out at once; a request whose override has not answered is answered 503 (docs/contract-tests.md).
   */
  close(): Promise<void>;
}

/** How a read of a file that is gone is said (file-parser.ts readFailure). */
const VANISHED = `${CANNOT_READ}ENOENT`;

/** How long close() lets a connection that has sent nothing yet send its request, before cutting it. */
const SILENT_GRACE_MS = 250;

/** The longest a stream of file events postpones a rebuild (docs/library.md: `debounce`). */
const MAX_REBUILD_WAIT_MS = 200;

/** How long after the last edit git is asked which edited files are committed as they are. */
const GIT_ASK_MS = 300;

/** The longest a rebuild waits for git to finish changing the work tree (a checkout of thousands of files). */
const GIT_WAIT_MS = 5_000;

const START_KEYS: readonly string[] = [
  ...HTTP_KEYS.filter((k) => k !== 'elmapi3'),
  ...optionKeys<Omit<StartServerOptions, keyof HttpOptions>>()([
    'content',
    'snapshot',
    'port',
    'host',
    'allowedHosts',
    'baseUrl',
    'watch',
    'quiet',
    'requestLog',
    'log',
    'journal',
    'onRequest',
    'onReload',
    'debounce',
    'ui',
    'strict',
    'parseCache',
    'onSlowQuery',
    'timestamps',
  ]),
];

/**
 * `port` as listen() is to get it: a whole number from 0 to 65535 (0: a free one), or its decimal
 * text (an environment variable). Anything else would make Node listen on a UNIX socket of that
 * name, or fail with ERR_SOCKET_BAD_PORT.
 */
/** The kinds of startServer's simple values (options.ts). */
const START_KINDS: Readonly<Record<string, OptionKind>> = {
  ...HTTP_KINDS,
  host: 'string',
  baseUrl: 'string',
  watch: 'boolean',
  quiet: 'boolean',
  requestLog: 'boolean',
  ui: 'boolean',
  strict: 'boolean',
  parseCache: 'boolean',
  log: 'function',
  onRequest: 'function',
  onReload: 'function',
  onSlowQuery: 'function',
  journal: 'count',
  debounce: 'count',
};

function checkPort(port: unknown): number {
  const n = typeof port === 'string' && /^\d{1,5}$/.test(port.trim()) ? Number(port.trim()) : port;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new TypeError(
      `startServer: port must be a whole number from 0 to 65535 (0: a free port), or its decimal text; got ${typeof port === 'string' ? JSON.stringify(port) : String(port)}`,
    );
  }
  if (n < 0 || n > 65535) throw new RangeError(`startServer: port must be from 0 to 65535 (0: a free port), got ${n}`);
  return n;
}

/** Options that cannot work together, refused before any work (docs/library.md). */
function checkTogether(o: StartServerOptions, tree: boolean): void {
  const snapshot = o.snapshot !== undefined;
  const watch = o.watch === true;
  // debounce and onReload act under watch only; `watch: false` is a switch set elsewhere.
  const noWatch = o.watch === undefined;
  refuseTogether('startServer', [
    bothSources(o),
    [
      snapshot && watch,
      'watch needs content: a snapshot given directly cannot be watched; give content (the folder to build and watch) instead of snapshot',
    ],
    [snapshot && o.parseCache === true, 'parseCache needs content: a snapshot given directly is not parsed; leave parseCache out'],
    [
      snapshot && o.timestamps !== undefined,
      'timestamps is read when content is built, not from a snapshot given directly: pass it to buildSnapshot({ content, timestamps }), or give content instead of snapshot',
    ],
    [
      snapshot && o.baseUrl !== undefined,
      'baseUrl is applied when content is built, not to a snapshot given directly: pass it to buildSnapshot({ content, baseUrl }) (cqa build --base-url), or give content instead of snapshot',
    ],
    [tree && watch, 'watch needs a content folder; an in-memory tree never changes (use override() or a new server per case)'],
    [
      tree && o.parseCache === true,
      "parseCache needs a content folder: an in-memory tree's temp folder, and the cache in it, go on close(); leave parseCache out",
    ],
    [
      watch && o.parseCache === true,
      'parseCache is not used under watch (the watcher keeps what the files parse to in memory); leave one out',
    ],
    [noWatch && o.debounce !== undefined, 'debounce is the wait of watch before a rebuild: add watch: true, or leave debounce out'],
    [noWatch && o.onReload !== undefined, 'onReload is called after a rebuild under watch: add watch: true, or leave onReload out'],
  ]);
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  checkOptions('startServer', options, START_KEYS, START_KINDS);
  const { allowedHosts = [] } = options;
  if (!Array.isArray(allowedHosts) || allowedHosts.some((h) => typeof h !== 'string'))
    throw new TypeError('startServer: allowedHosts must be an array of host names');
  if (options.port !== undefined) checkPort(options.port);
  const content = contentOption('startServer', options.content);
  checkTogether(options, isContentTree(content));
  // delay, failRate, failStatus, …: before an in-memory tree is written out.
  checkControls(options, 'startServer');
  if (!isContentTree(content)) return start({ ...options, content } as StartServerOptions & { content?: string });
  const written = await writeContentTree(content);
  try {
    return await start({ ...options, content: written.root }, written);
  } catch (err) {
    await written.remove();
    throw err;
  }
}

async function start(options: StartServerOptions & { content?: string }, tree?: WrittenTree): Promise<RunningServer> {
  // The controls' options were checked by startServer (src/core/http/controls.ts).
  // Prefer is honoured by default here (a mock for tests), not in createHandler (a deployment).
  const controls = new Controls({ ...options, prefer: options.prefer ?? true });
  const journal = new Journal(options.journal ?? 1000);
  const log = options.log ?? ((line: string) => console.log(line));
  const root = resolve(options.content ?? 'content');
  const baseUrl = options.baseUrl;
  const hasContent = !options.snapshot;
  const timestamps = options.timestamps ? { timestamps: options.timestamps } : {};
  // The incremental loader keeps every file's parse results so that a rebuild re-reads only what
  // changed: worth it under --watch, but without it those results would only take memory (several
  // times the content's size), so then each build (the first, any reload()) starts afresh.
  // Files are read and parsed on a thread of their own: a large file would otherwise hold up
  // every answer while it is parsed.
  // Their modules are loaded only with watch (docs/performance.md#start-up).
  const watching = options.watch
    ? await Promise.all([
        import('../content/parse-thread.js'),
        import('../content/load.js'),
        import('../content/watch.js'),
        import('../content/git-times.js'),
        import('../content/git-repo.js'),
      ]).then(([{ ParseThread }, { createContentLoader, relOf }, { watchContent, watchGitHead }, { cleanAmong }, { gitFolder }]) => ({
        ParseThread,
        createContentLoader,
        relOf,
        watchContent,
        gitFolder,
        watchGitHead,
        cleanAmong,
      }))
    : undefined;
  const parser = watching ? new watching.ParseThread({ lines: true }) : undefined;
  const watchLoader = watching ? watching.createContentLoader(root, { ...(parser ? { parser } : {}), ...timestamps }) : undefined;
  const warned = new Set<string>();

  const build = async (changes?: readonly string[]): Promise<{ snapshot: Snapshot } | { issues: readonly ContentIssue[] }> => {
    if (!hasContent) throw new Error('no content to build');
    const opts = baseUrl !== undefined ? { baseUrl } : {};
    // Without --watch nothing else keeps the records: the compact snapshot (snapshot/compact.ts) is
    // made where the tree is loaded (the load process for a large tree: load-path.ts).
    const parseCache = options.parseCache && !watchLoader ? { parseCache: openParseCache(root) } : {};
    const loaded = watchLoader
      ? await watchLoader.load(changes)
      : await loadSnapshotIsolated(root, { ...opts, ...parseCache, ...timestamps });
    // Each warning once: at start, and under --watch the new ones a reload finds (beside errors too,
    // as cqa check prints them).
    const fresh = options.quiet === false ? loaded.warnings.filter((w) => !warned.has(formatIssue(w))) : [];
    if (fresh.length > 0) {
      for (const w of fresh) warned.add(formatIssue(w));
      log(
        warningLines(fresh)
          .map((w) => `warning: ${w}`)
          .join('\n'),
      );
    }
    if (loaded.issues.length > 0) return { issues: loaded.issues };
    return { snapshot: 'model' in loaded ? createSnapshot(loaded.model, opts) : (loaded.snapshot as Snapshot) };
  };

  /** `build`, and again for files deleted between the listing and their read (a git checkout, a tool's temp file): a deletion, not a broken file. */
  const buildSettled = async (changes?: readonly string[]): Promise<Awaited<ReturnType<typeof build>>> => {
    const attempt = async (paths: readonly string[] | undefined): Promise<Awaited<ReturnType<typeof build>>> => {
      try {
        return await build(paths);
      } catch (err) {
        const issues = (err as { issues?: ContentIssue[] }).issues;
        if (!issues) throw err;
        return { issues };
      }
    };
    let result = await attempt(changes);
    // Those paths are looked at again, a few times at most.
    for (
      let tries = 0;
      tries < 3 && 'issues' in result && result.issues.length > 0 && result.issues.every((i) => i.message === VANISHED);
      tries++
    ) {
      result = await attempt(result.issues.map((i) => i.file));
    }
    return result;
  };

  // Paths the watcher saw change since the last rebuild (the loader then looks only at those);
  // `full` asks for a listing of the whole tree instead. The watcher starts before the first load:
  // a file saved (or deleted) while it runs is rebuilt once the server is up (found from outside:
  // such a change was never picked up).
  let pending = new Set<string>();
  let full = false;
  let onChange: (() => void) | undefined;
  const watcher = watching?.watchContent(
    root,
    (path) => {
      if (path === undefined) full = true;
      else pending.add(path);
      onChange?.();
    },
    (err) => log(`cqa: watch error: ${printable(String(err))}`),
  );
  // The git folder of the work tree around the content: a rebuild waits while git holds its
  // index lock, and one where the dates come from git follows its HEAD (a commit dates the edits).
  const gitDir = watching?.gitFolder(root);
  const gitDates = gitDir !== undefined && options.timestamps !== 'mtime';
  const reloadAll = () => {
    full = true; // a full load reads git again (load.ts)
    onChange?.();
  };
  const headWatcher = gitDates ? watching?.watchGitHead(gitDir, reloadAll) : undefined;
  // An edit takes its file's time until it is committed; one undone (`git restore`, an undo)
  // moves no HEAD: git is asked about the edited files once the edits settle.
  const edited = new Set<string>();
  let askGit: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const editsSettled = (changes: readonly string[]) => {
    for (const path of changes) {
      const rel = watching?.relOf(root, path) ?? '';
      if (rel !== '' && !rel.startsWith('..')) edited.add(rel);
    }
    clearTimeout(askGit);
    askGit = setTimeout(() => {
      void watching?.cleanAmong(root, [...edited]).then((clean) => {
        if (clean.length > 0 && !stopped) reloadAll();
      });
    }, GIT_ASK_MS);
  };
  const stopLoading = async () => {
    stopped = true;
    clearTimeout(askGit);
    await watcher?.close();
    await headWatcher?.close();
    await parser?.close();
  };

  let snapshot: Snapshot;
  if (options.snapshot) {
    snapshot = options.snapshot;
  } else {
    const first = await buildSettled().catch(async (err: unknown) => {
      await stopLoading();
      throw err;
    });
    if ('issues' in first) {
      await stopLoading();
      throw new ContentError(first.issues);
    }
    snapshot = first.snapshot;
  }
  // The first load parsed the whole tree: a fresh thread drops the heap that took.
  await parser?.restart();

  const core = new HttpCore(
    snapshot,
    nodePlatform,
    options.onSlowQuery ? reportingSlowQueries(defaultEngine, options.onSlowQuery) : defaultEngine,
    {
      ...options,
      explorer: options.ui === false ? undefined : (options.explorer ?? nodeExplorer()),
      elmapi3: options.strict === true ? strictElmapi3Routes : elmapi3Routes,
    },
    controls,
  );
  const textLog = options.requestLog ?? options.quiet === false;
  const onRequest = options.onRequest;
  const overrides = new Overrides();
  const waiters = new RequestWaiters();
  const record =
    journal.size > 0 || textLog || onRequest
      ? (r: RequestRecord) => {
          // The explorer's /healthz polls (every 2 s while a page is open; docs/explorer.md) would
          // bury the requests a person or a test is looking for.
          if (r.path === '/healthz' && r.headers['x-cqa-explorer'] === 'poll') return;
          // With a journal (journal > 0) the listener captures every answer: each record has one.
          if (isJournaled(r)) {
            journal.add(r);
            if (waiters.size > 0) waiters.offer(journal.last() as JournaledRequest);
          }
          if (textLog) log(printable(logLine(r)));
          onRequest?.(r);
        }
      : undefined;
  const answer = createNodeListener(core, {
    ...(record ? { onRequest: record } : {}),
    captureResponse: journal.size > 0,
    overrides,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  // DNS rebinding: a loopback server answers only requests for a loopback name or an address (host-check.ts).
  const listenHost = options.host ?? '127.0.0.1';
  const allowedHosts = options.allowedHosts ?? [];
  const refuseHost = (req: IncomingMessage, res: ServerResponse, named: string): void => {
    closeAfterBody(req, res); // as every answer does (connect.ts)
    const r = core.problem(
      { method: req.method ?? 'GET', path: '', query: '', headers: req.headers },
      {
        status: 403,
        code: 'host_not_allowed',
        detail: hostRefusal(named, listenHost, 'start it with allowedHosts (cqa serve --allowed-host NAME)'),
      },
    );
    answer.refuse(req, res, r);
  };
  let lastAllowed: string | undefined; // clients repeat their Host: each is checked once in a row
  const checked = (req: IncomingMessage, res: ServerResponse): void => {
    const named = req.headers.host;
    if (named !== undefined && named !== lastAllowed) {
      if (!hostAllowed(named, allowedHosts)) {
        refuseHost(req, res, named);
        return;
      }
      lastAllowed = named;
    }
    answer(req, res);
  };
  // CONNECTIONS_CHECK_MS: Node enforces the two timeouts only when it checks (timeouts.ts).
  const server = createServer(
    { requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: CONNECTIONS_CHECK_MS },
    isLoopback(listenHost) ? checked : answer,
  );
  server.on(
    'connect',
    refuseConnect((req) =>
      core.problem(
        { method: 'CONNECT', path: '', query: '', headers: req.headers },
        { status: 405, code: 'method_not_allowed', detail: `CONNECT is not allowed; this API is read-only (${ALLOWED_METHODS})` },
        { allow: ALLOWED_METHODS },
      ),
    ),
  );
  server.on('clientError', answerClientError);
  // Connections that have sent nothing: closeIdleConnections() leaves them open, so close() would
  // wait for their clients to drop them (undici opens one when a request is aborted, and keeps it
  // 4 s). close() cuts those still silent after SILENT_GRACE_MS (a request on its way is answered).
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  try {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(options.port === undefined ? 0 : checkPort(options.port), options.host ?? '127.0.0.1', () => {
        server.off('error', fail);
        ok();
      });
    });
  } catch (err) {
    // A busy port must leave nothing running: the parse thread would keep the process alive.
    await stopLoading();
    throw err;
  }
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' || addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  const url = `http://${host}:${addr.port}`;
  // /openapi.json names this address, unless a base URL says where clients reach the API, or the
  // server listens on every interface (0.0.0.0 is no address to send requests to: then `/`).
  const wildcard = addr.address === '0.0.0.0' || addr.address === '::';
  if (options.serverUrl === undefined && !baseUrl && !snapshot.baseUrl && !wildcard) core.describeServerAt(url);

  // Rebuilds run one at a time; changes during a rebuild schedule exactly one more.
  let running: Promise<ReloadEvent> | undefined;
  let again = false;
  const reloadOnce = async (): Promise<ReloadEvent> => {
    const t0 = performance.now();
    const changes = full ? undefined : [...pending];
    pending = new Set();
    full = false;
    const result = await buildSettled(changes);
    const ms = performance.now() - t0;
    if (gitDates) {
      if (changes === undefined) edited.clear();
      else editsSettled(changes);
    }
    if ('issues' in result) {
      core.markStale(result.issues);
      return { ok: false, issues: result.issues, ms };
    }
    const changed = result.snapshot.hash !== core.snapshot.hash;
    if (changed) core.swap(result.snapshot);
    else core.markStale(undefined); // fixed back to the very snapshot being served
    return { ok: true, snapshot: result.snapshot, ms, changed };
  };
  const reload = (): Promise<ReloadEvent> => {
    if (running) {
      again = true;
      return running;
    }
    running = reloadOnce().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        void reload().then(report, reportFailure);
      }
    });
    return running;
  };
  // Whether the last rebuild failed: the first good one after it says so, even when quiet, as
  // the errors were said (a fix back to the served snapshot changes nothing else to report).
  let broken = false;
  const report = (ev: ReloadEvent) => {
    if (!ev.ok) {
      broken = true;
      log(
        `cqa: content errors — still serving the last good snapshot (/healthz says stale: true):\n${ev.issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`,
      );
    } else if (broken) {
      broken = false;
      log(`cqa: content ok again — serving snapshot ${ev.snapshot.hash} (rebuilt in ${ev.ms.toFixed(0)} ms)`);
    } else if (ev.changed && options.quiet === false) {
      log(`cqa: reloaded in ${ev.ms.toFixed(0)} ms (snapshot ${ev.snapshot.hash})`);
    }
    options.onReload?.(ev);
  };
  const reportFailure = (err: unknown) => log(`cqa: rebuild failed: ${printableLines((err as Error)?.stack ?? String(err))}`);

  /** The rebuild waiting for the changes to settle (cleared by close()). */
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (watcher && watching) {
    const debounce = options.debounce ?? 25;
    // Events keep postponing the rebuild by `debounce`, but not past this: a file written every
    // 10 ms (a generator, a sync tool) would otherwise never be served until the writes stopped.
    const longest = Math.max(debounce, MAX_REBUILD_WAIT_MS);
    // …unless git is changing the tree: a checkout of 2,000 files took 2 s, and the snapshots
    // made meanwhile served half of each branch (found from outside).
    const gitLock = gitDir && join(gitDir, 'index.lock');
    let since = 0;
    let lockSaid = false;
    const rebuild = () => {
      if (gitLock !== undefined && existsSync(gitLock)) {
        if (Date.now() - since < GIT_WAIT_MS) {
          timer = setTimeout(rebuild, debounce);
          return;
        }
        if (!lockSaid)
          log(
            `cqa: ${printable(gitLock)} has stayed for ${GIT_WAIT_MS / 1000} s: rebuilt anyway (a git that stopped halfway leaves it; remove it when no git command runs)`,
          );
        lockSaid = true;
      }
      timer = undefined;
      // During a rebuild: one more after it, which reports (this one's event is reported once).
      if (running) again = true;
      else void reload().then(report, reportFailure);
    };
    onChange = () => {
      const now = Date.now();
      if (timer === undefined) since = now;
      else if (now - since >= longest) return;
      clearTimeout(timer);
      timer = setTimeout(rebuild, debounce);
    };
    // What changed while the first load ran.
    if (full || pending.size > 0) onChange();
  }

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      answer.closing = true;
      answer.answerPending();
      waiters.cancel('the server was closed');
      clearTimeout(timer);
      await stopLoading();
      await new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeIdleConnections();
        // Keep-alive connections go idle once their last answer is out: close them as they do;
        // after 10 s, everything still open is cut.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        const silent = setTimeout(() => {
          for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
        }, SILENT_GRACE_MS);
        const hard = setTimeout(() => server.closeAllConnections(), 10_000);
        server.once('close', () => {
          clearInterval(sweep);
          clearTimeout(silent);
          clearTimeout(hard);
        });
      });
      await tree?.remove();
    })();
    return closed;
  };

  return {
    url,
    port: addr.port,
    server,
    seed: controls.seed,
    controls: controls.describe(),
    requests: () => journal.list(),
    clearRequests: () => journal.clear(),
    waitForRequest: (predicate, opts = {}) =>
      journal.size === 0
        ? Promise.reject(new Error('waitForRequest needs the journal: start the server without journal: 0'))
        : waiters.wait(predicate, opts, journal.list()),
    override: (method, pattern, answer) => overrides.add(method, pattern, answer),
    reset: () => overrides.reset(),
    get snapshot() {
      return core.snapshot;
    },
    reload: () => {
      if (!hasContent) return Promise.reject(new Error('reload() needs the content option'));
      // An in-memory tree's folder is gone by then: the load said "content folder not found".
      if (closed) return Promise.reject(new Error('reload() after close(): the server is closed'));
      full = true;
      return reload();
    },
    close,
  };
}
