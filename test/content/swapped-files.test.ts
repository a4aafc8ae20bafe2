// A content file swapped for a symbolic link between the listing and the read: `serve --watch`
// published a .env-like file from outside the content folder after 2–3 swaps, and kept it as its
// last good snapshot. Every read path opens the file without following a link it was not listed
// as, and checks that what it opened is where the listing saw it (src/node/content/open-content.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runJob } from '../../src/node/content/file-parser.js';
import { createContentLoader, loadContent } from '../../src/node/content/load.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { writeDist } from '../../src/node/output/dist.js';
import { readDimensions } from '../../src/node/content/media.js';
import { FileProblem } from '../../src/node/content/file-problem.js';
import { readContentText } from '../../src/node/content/read.js';
import { listFiles, type FileInfo } from '../../src/node/content/files.js';
import { png, writeTree } from './helpers.js';
import { makeTempDir } from '../temp-roots.js';

const PNG_1x1 = png(1, 1);

const SECRET = 'SECRET_API_KEY_9f3a';

function outsideFile(name: string, text: string): string {
  const file = join(makeTempDir('cqa-outside-'), name);
  writeFileSync(file, text);
  return file;
}

/**
 * Another process that swaps `rel` between the real file and a link to `secret`, by atomic
 * renames, until killed (at most 20 s).
 */
async function startSwapper(root: string, rel: string, secret: string): Promise<ChildProcess> {
  const spare = join(root, '_spare'); // not content: folders named _… are never listed
  mkdirSync(spare);
  // Another process swaps p/posts/e7.yaml between the real file and a link to the secret, by
  // atomic renames, for as long as this test loads.
  const swapper = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('node:fs'); const [entry, spare, secret] = process.argv.slice(1);
         fs.writeFileSync(spare + '/file', 'title: E7\\n');
         process.stdout.write('ready\\n');
         for (const end = Date.now() + 20000; Date.now() < end; ) {
           try { fs.unlinkSync(spare + '/link'); } catch {}
           fs.symlinkSync(secret, spare + '/link');
           fs.renameSync(spare + '/link', entry);
           fs.writeFileSync(spare + '/file', 'title: E7\\n');
           fs.renameSync(spare + '/file', entry);
         }`,
      join(root, rel),
      spare,
      secret,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise((ready) => swapper.stdout.once('data', ready));
  return swapper;
}

describe('a file listed as a regular file but a link when it is read', () => {
  it('is refused with a message saying what happened, and the outside text is never returned', () => {
    const secret = outsideFile('.env', `title: ${SECRET}\n`);
    const root = writeTree({ 'p/posts/a.yaml': 'title: A\n' });
    rmSync(join(root, 'p/posts/a.yaml'));
    symlinkSync(secret, join(root, 'p/posts/a.yaml'));
    // The listing said "a regular file" (no target): exactly what the loader saw before the swap.
    const listed = { abs: join(root, 'p/posts/a.yaml'), rel: 'p/posts/a.yaml' };
    expect(() => readContentText(listed)).toThrow(FileProblem);
    expect(() => readContentText(listed)).toThrow(/changed while it was read/);
    // The same read on a worker thread (parse-worker.ts, split-parser.ts) reports it as failed.
    const outcome = runJob({ ...listed, kind: 'entry' }, true);
    expect(outcome).toEqual({ failed: { message: expect.stringContaining('changed while it was read') } });
    expect(JSON.stringify(outcome)).not.toContain(SECRET);
  });

  it('is refused when a folder on its path was replaced by a link to a folder outside', () => {
    const outside = makeTempDir('cqa-outside-');
    writeFileSync(join(outside, 'a.yaml'), `title: ${SECRET}\n`);
    const root = writeTree({ 'p/posts/a.yaml': 'title: A\n' });
    rmSync(join(root, 'p/posts'), { recursive: true });
    symlinkSync(outside, join(root, 'p/posts'));
    expect(() => readContentText({ abs: join(root, 'p/posts/a.yaml'), rel: 'p/posts/a.yaml' })).toThrow(/changed while it was read/);
  });

  it("is refused after a folder swap also when the listing saw the file's inode (the check that skips readlink)", async () => {
    const outside = makeTempDir('cqa-outside-');
    writeFileSync(join(outside, 'a.yaml'), `title: ${SECRET}\n`);
    const root = writeTree({ 'p/posts/a.yaml': 'title: A\n' });
    const listed = (await listFiles(root)).find((f) => f.rel === 'p/posts/a.yaml');
    expect(listed?.ino).toBeTypeOf('number');
    expect(readContentText(listed as FileInfo)).toBe('title: A\n');
    rmSync(join(root, 'p/posts'), { recursive: true });
    symlinkSync(outside, join(root, 'p/posts'));
    expect(() => readContentText(listed as FileInfo)).toThrow(/changed while it was read/);
    // A file saved again in place (a new inode, as editors' atomic saves make) is still read.
    rmSync(join(root, 'p/posts'));
    mkdirSync(join(root, 'p/posts'));
    writeFileSync(join(root, 'p/posts/a.yaml'), 'title: A2\n');
    expect(readContentText(listed as FileInfo)).toBe('title: A2\n');
  });

  it('refuses a listed link that now leads somewhere other than its listed target (project.yaml with its tokens)', () => {
    const root = writeTree({
      'p/project.yaml': `id: p\ntokens: [{ name: t, token: ${SECRET}, scopes: [read] }]\n`,
      'p/posts/b.yaml': 'title: B\n',
    });
    symlinkSync('../project.yaml', join(root, 'p/posts/a.yaml'));
    expect(() => readContentText({ abs: join(root, 'p/posts/a.yaml'), rel: 'p/posts/a.yaml', target: 'p/posts/b.yaml' })).toThrow(
      /changed while it was read/,
    );
    // The link as listed still reads.
    rmSync(join(root, 'p/posts/a.yaml'));
    symlinkSync('b.yaml', join(root, 'p/posts/a.yaml'));
    expect(readContentText({ abs: join(root, 'p/posts/a.yaml'), rel: 'p/posts/a.yaml', target: 'p/posts/b.yaml' })).toBe('title: B\n');
  });

  it('refuses an image swapped for a link before its size is read', async () => {
    const image = outsideFile('x.png', '');
    writeFileSync(image, PNG_1x1);
    const root = writeTree({ 'p/media/x.png': PNG_1x1 });
    rmSync(join(root, 'p/media/x.png'));
    symlinkSync(image, join(root, 'p/media/x.png'));
    await expect(readDimensions({ abs: join(root, 'p/media/x.png'), rel: 'p/media/x.png' }, 'image/png', PNG_1x1.length)).rejects.toThrow(
      /changed while it was read/,
    );
  });
});

// The loader as `serve --watch` drives it: a whole listing, then reloads of the changed paths only.
// (The server itself reloads a few times a second at most, too seldom to meet the swap reliably.)
describe('an entry swapped back and forth for a link to an outside file while the tree is loaded', () => {
  it('never publishes the outside text; a load that meets the swap names the file', async () => {
    const secret = outsideFile('.env', `title: ${SECRET}\n`);
    const root = writeTree({
      'p/project.yaml': 'id: p\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n',
      ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p/posts/e${i}.yaml`, `title: E${i}\n`])),
    });
    const swapper = await startSwapper(root, 'p/posts/e7.yaml', secret);
    try {
      const loader = createContentLoader(root);
      const seen = { refused: 0, loads: 0, swapped: 0 };
      const started = Date.now();
      // Until the swap was met between listing and read a few times, for at most 15 s.
      for (let i = 0; seen.refused < 3 && Date.now() - started < 15_000; i++) {
        const r = await loader.load(i % 2 === 0 ? undefined : ['p/posts/e7.yaml']);
        seen.loads++;
        expect(JSON.stringify(r.model)).not.toContain(SECRET);
        const e7 = r.issues.filter((x) => x.file === 'p/posts/e7.yaml');
        if (e7.some((x) => /changed while it was read/.test(x.message))) seen.refused++;
        if (e7.length > 0) seen.swapped++;
        // Whatever went wrong is reported on the file that was swapped, never on another.
        expect(r.issues.filter((x) => x.file !== 'p/posts/e7.yaml')).toEqual([]);
      }
      expect(seen.swapped).toBeGreaterThan(0);
    } finally {
      swapper.kill();
    }
  }, 60_000);
});

describe('cqa build: a media file swapped for a link after the content was loaded', () => {
  it('is not copied into dist/ (nor made into a thumbnail); the build fails naming the media', async () => {
    const secret = outsideFile('.env', SECRET);
    const image = outsideFile('big.png', '');
    writeFileSync(image, PNG_1x1);
    const root = writeTree({ 'p/project.yaml': 'id: p\npublic: true\n', 'p/media/notes.txt': 'hello', 'p/media/x.png': PNG_1x1 });
    const { model, issues } = await loadContent(root);
    expect(issues).toEqual([]);
    const snapshot = createSnapshot(model);
    const out = join(mkdtempSync(join(tmpdir(), 'cqa-dist-')), 'dist');
    rmSync(join(root, 'p/media/notes.txt'));
    symlinkSync(secret, join(root, 'p/media/notes.txt'));
    await expect(writeDist(snapshot, { out })).rejects.toThrow(/media 'notes.txt' is no longer a regular file inside/);
    expect(existsSync(out)).toBe(false);

    // The thumbnail is made from the checked file too.
    rmSync(join(root, 'p/media/notes.txt'));
    writeFileSync(join(root, 'p/media/notes.txt'), 'hello');
    rmSync(join(root, 'p/media/x.png'));
    symlinkSync(image, join(root, 'p/media/x.png'));
    await expect(writeDist(snapshot, { out })).rejects.toThrow(/media 'x.png' is no longer a regular file inside/);
  });
});
