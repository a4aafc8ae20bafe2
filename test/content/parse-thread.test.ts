// Parsing off the request thread under --watch: the loader hands the files it has no result for to
// its FileParser (and parses nothing itself), and the compiled server parses on a ParseThread
// whose outcomes carry their line maps, so that messages need no parse on the request thread.
// (lib/ is compiled by test/global-setup.ts.)
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fromOutcome, runJob, type FileParser, type Outcome, type ParseJob } from '../../src/node/content/file-parser.js';
import { createContentLoader } from '../../src/node/content/load.js';
import type { ParseThread as ParseThreadType } from '../../src/node/content/parse-thread.js';
import type { startServer as StartServer, ReloadEvent } from '../../src/node/server/start.js';
import { writeTree } from './helpers.js';

const compiled = async () => ({
  ...((await import(pathToFileURL(resolve('lib/node/content/parse-thread.js')).href)) as { ParseThread: typeof ParseThreadType }),
  ...((await import(pathToFileURL(resolve('lib/node/server/start.js')).href)) as { startServer: typeof StartServer }),
});

async function until(probe: () => Promise<boolean> | boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function touch(root: string, path: string, text: string, seconds: number): void {
  writeFileSync(join(root, path), text);
  const t = new Date(Date.UTC(2021, 0, 1, 0, 0, seconds));
  utimesSync(join(root, path), t, t);
}

describe('the loader with a FileParser', () => {
  it('parses nothing itself: the first load asks for every file, a reload only for the changed one', async () => {
    const root = writeTree({
      'p/project.yaml': 'name: P\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n',
      'p/posts/a.yaml': 'title: A\n',
      'p/posts/b.md': '---\ntitle: B\n---\n',
    });
    const asked: string[][] = [];
    // Answers from the file's text with the title upper-cased: the model shows whose parse it is.
    const parser: FileParser = {
      async parse(jobs: readonly ParseJob[]) {
        asked.push(jobs.map((j) => j.rel));
        const out = new Map<string, Outcome>();
        for (const job of jobs) {
          const outcome = runJob(job, true);
          if ('entry' in outcome && outcome.entry.data) outcome.entry.data.title = String(outcome.entry.data.title).toUpperCase();
          out.set(job.abs, fromOutcome(outcome));
        }
        return out;
      },
    };
    const loader = createContentLoader(root, { parser });
    const titles = async (...changed: string[]) =>
      (await loader.load(changed.length > 0 ? changed : undefined)).model.projects[0]?.collections[0]?.entries.map((e) => e.values.title);
    expect(await titles()).toEqual(['A', 'B']);
    expect(asked).toEqual([['p/project.yaml', 'p/posts/_collection.yaml', 'p/posts/a.yaml', 'p/posts/b.md']]);
    touch(root, 'p/posts/a.yaml', 'title: a2\n', 1);
    expect(await titles('p/posts/a.yaml')).toEqual(['A2', 'B']);
    expect(asked[1]).toEqual(['p/posts/a.yaml']);
  });
});

describe('ParseThread (compiled)', () => {
  it('gives entries with their lines, settings files with lineOf, and read failures as problems', async () => {
    const { ParseThread } = await compiled();
    const root = writeTree({
      'p/posts/a.yaml': 'title: A\ntags:\n  - x\n  - y\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n  tags: { type: text }\n',
    });
    const thread = new ParseThread({ lines: true });
    try {
      const out = await thread.parse([
        { abs: join(root, 'p/posts/a.yaml'), rel: 'p/posts/a.yaml', kind: 'entry' },
        { abs: join(root, 'p/posts/_collection.yaml'), rel: 'p/posts/_collection.yaml', kind: 'yaml' },
        { abs: join(root, 'p/posts/gone.yaml'), rel: 'p/posts/gone.yaml', kind: 'entry' },
      ]);
      const a = out.get(join(root, 'p/posts/a.yaml'));
      const config = out.get(join(root, 'p/posts/_collection.yaml'));
      const gone = out.get(join(root, 'p/posts/gone.yaml'));
      expect(a && 'entry' in a && [...a.entry.lines]).toEqual([
        ['title', 1],
        ['tags', 2],
        ['tags\0' + '0', 3],
        ['tags\0' + '1', 4],
      ]);
      expect(config && 'yaml' in config && config.yaml.lineOf(['fields', 'tags', 'type'])).toBe(3);
      expect(gone && 'failed' in gone && gone.failed.message).toBe('cannot read the file: ENOENT');
    } finally {
      await thread.close();
    }
  });
});

describe('ParseThread.shared (compiled): a tree parsed by two threads', () => {
  const files = 300;
  const tree = () => {
    const spec: Record<string, string> = {};
    for (let i = 0; i < files; i++) spec[`p/posts/e${i}.md`] = `---\ntitle: T${i}\n---\nBody ${i}\n`;
    const root = writeTree(spec);
    const jobs: ParseJob[] = Object.keys(spec).map((rel) => ({ abs: join(root, rel), rel, kind: 'entry' }));
    return { jobs, counter: new Int32Array(new SharedArrayBuffer(4)) };
  };
  const title = (o: Outcome | undefined) => (o && 'entry' in o ? o.entry.data?.title : undefined);

  it('sends each few files as soon as they are parsed: the caller takes them while it works, and every file comes once', async () => {
    const { ParseThread } = await compiled();
    const { jobs, counter } = tree();
    const thread = new ParseThread({ lines: false });
    try {
      const outcomes = new Map<string, Outcome>();
      const theirs = thread.shared(jobs, counter);
      // This thread claims nothing until the other has taken every file: their outcomes are there to take before rest().
      const pause = new Int32Array(new SharedArrayBuffer(4));
      for (let waited = 0; Atomics.load(counter, 0) < files && waited < 10_000; waited += 10) Atomics.wait(pause, 0, 0, 10);
      for (let waited = 0; outcomes.size < files && waited < 10_000; waited += 10) {
        theirs.take(outcomes);
        Atomics.wait(pause, 0, 0, 10);
      }
      expect(outcomes.size).toBe(files);
      await theirs.rest(outcomes);
      expect([...outcomes.keys()].sort()).toEqual(jobs.map((j) => j.abs).sort());
      expect(title(outcomes.get(jobs[7]?.abs as string))).toBe('T7');
    } finally {
      await thread.close();
    }
  });

  it('a thread that stops ends the wait: what it did not send is left to the caller', async () => {
    const { ParseThread } = await compiled();
    const { jobs, counter } = tree();
    const thread = new ParseThread({ lines: false });
    const outcomes = new Map<string, Outcome>();
    const theirs = thread.shared(jobs, counter);
    await thread.close();
    await theirs.rest(outcomes); // resolves: the thread's exit ends it
    expect(outcomes.size).toBeLessThan(files);
  });
});

describe('serve --watch (compiled): parsing on the parse thread', () => {
  const root = writeTree({
    'w/project.yaml': 'id: w\ntokens:\n  - name: t\n    token: w-token\n    scopes: [read]\n',
    'w/posts/_collection.yaml': 'fields:\n  title: text\n  n: number\n',
    'w/posts/a.md': '---\ntitle: One\n---\n',
  });
  let server: Awaited<ReturnType<typeof StartServer>> | undefined;
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves a change and reports a broken file with its line', async () => {
    const { startServer } = await compiled();
    const events: ReloadEvent[] = [];
    server = await startServer({ content: root, watch: true, log: () => {}, onReload: (e) => events.push(e) });
    const title = async () => {
      const res = await fetch(`${server?.url}/api/w/posts/a`, { headers: { authorization: 'Bearer w-token' } });
      return ((await res.json()) as { data: { title: string } }).data.title;
    };
    expect(await title()).toBe('One');
    writeFileSync(join(root, 'w/posts/a.md'), '---\ntitle: Two\n---\n');
    await until(async () => (await title()) === 'Two');
    writeFileSync(join(root, 'w/posts/b.md'), '---\ntitle: B\nn: many\n---\n');
    await until(async () => events.some((e) => !e.ok));
    const failed = events.find((e) => !e.ok);
    expect(failed && !failed.ok && failed.issues).toEqual([
      { file: 'w/posts/b.md', line: 3, field: 'n', message: 'expected a number, got "many"' },
    ]);
    expect(await title()).toBe('Two');
  });
});
