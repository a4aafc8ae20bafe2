// Reading content files: only regular files (a FIFO named *.md used to hang `cqa build` forever),
// strict UTF-8 (bad bytes used to become U+FFFD silently), and a folder that cannot be listed is
// a content error naming it (it used to end the build with a bare `EACCES … scandir` stack).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { loadContent } from '../../src/node/content/load.js';
import { FileProblem } from '../../src/node/content/file-problem.js';
import { readContentText } from '../../src/node/content/read.js';
import { entry, load, png, writeTree } from './helpers.js';

// A folder named `locked-by-test` fails to list as if it were unreadable, by an injected EACCES
// (the real case, chmod 000, is tested below too).
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readdirSync = (path: string, ...args: unknown[]) => {
    if (String(path).endsWith('locked-by-test')) {
      throw Object.assign(new Error(`EACCES: permission denied, scandir '${path}'`), { code: 'EACCES', path });
    }
    return (fs.readdirSync as (...a: unknown[]) => unknown)(path, ...args);
  };
  return { ...fs, default: { ...fs, readdirSync }, readdirSync };
});

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);
const isRoot = process.getuid?.() === 0;

describe('non-regular files in the content tree', () => {
  it('skips a FIFO or a socket, named as an entry, a settings file or a media file, with a warning naming it', async () => {
    const root = writeTree({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/posts/a.md': '---\ntitle: A\n---\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n',
    });
    mkfifo(join(root, 'p/posts/fifo.md'));
    mkdirSync(join(root, 'p/media'));
    mkfifo(join(root, 'p/media/pipe.png'));
    const socket = createServer();
    await new Promise<void>((ok) => socket.listen(join(root, 'p/posts/socket.yaml'), ok));
    try {
      const r = await loadContent(root);
      expect(r.issues).toEqual([]);
      const skipped = 'skipped: not a regular file (a FIFO, socket or device): remove it or move it out of the content folder';
      expect(r.warnings).toEqual([
        { file: 'p/media/pipe.png', message: skipped },
        { file: 'p/posts/fifo.md', message: skipped },
        { file: 'p/posts/socket.yaml', message: skipped },
      ]);
      expect(r.model.projects[0]?.media).toEqual([]);
    } finally {
      socket.close();
    }
  });

  it('refuses a FIFO at read time too, without waiting for a writer (a file swapped after listing)', () => {
    const root = writeTree({});
    mkfifo(join(root, 'swapped.yaml'));
    expect(() => readContentText({ abs: join(root, 'swapped.yaml'), rel: 'swapped.yaml' })).toThrow(FileProblem);
  });

  it('lets `cqa build` finish on a tree with a FIFO', () => {
    const root = writeTree({ 'p/project.yaml': 'id: p\n', 'p/posts/a.md': '---\ntitle: A\n---\n' });
    mkfifo(join(root, 'p/posts/fifo.md'));
    // spawnSync: the warning goes to stderr of a run that succeeds.
    const out = join(writeTree({}), 'dist');
    const run = spawnSync(process.execPath, [resolve('bin/cqa.js'), 'build', root, '--out', out, '--include-private'], {
      timeout: 15_000,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('warning: p/posts/fifo.md: skipped: not a regular file');
  });
});

describe('UTF-8', () => {
  it('reports invalid UTF-8 with the line of the first bad byte, in every kind of content file', async () => {
    const bad = Buffer.from([0xc3, 0x28]); // a lead byte followed by an ASCII one
    const r = await load({
      'p/posts/a.md': Buffer.concat([Buffer.from('---\ntitle: ok\n---\nline 4\nline 5 '), bad, Buffer.from('\n')]),
      'p/posts/b.yaml': Buffer.concat([Buffer.from('title: '), Buffer.from([0xff]), Buffer.from('\n')]),
      'p/posts/c.json': Buffer.concat([Buffer.from('{\n\n  "title": "'), Buffer.from([0xe2, 0x82]), Buffer.from('"\n}\n')]),
      'p/posts/_collection.yaml': Buffer.concat([
        Buffer.from('fields:\n  title: text\n# '),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('\n'),
      ]),
    });
    expect(r.issues.map((i) => [i.file, i.line, i.message.replace(/\(byte \d+ of the file\)/, '(byte N)')])).toEqual([
      ['p/posts/_collection.yaml', 3, 'not valid UTF-8 (byte N): save the file as UTF-8'],
      ['p/posts/a.md', 5, 'not valid UTF-8 (byte N): save the file as UTF-8'],
      ['p/posts/b.yaml', 1, 'not valid UTF-8 (byte N): save the file as UTF-8'],
      ['p/posts/c.json', 3, 'not valid UTF-8 (byte N): save the file as UTF-8'],
    ]);
    expect(r.issues[2]?.message).toBe('not valid UTF-8 (byte 8 of the file): save the file as UTF-8');
    // The lead byte of a sequence that was never finished, not the byte after it (found from outside).
    expect(r.issues[1]?.message).toBe('not valid UTF-8 (byte 33 of the file): save the file as UTF-8');
    expect(r.issues[3]?.message).toBe('not valid UTF-8 (byte 16 of the file): save the file as UTF-8');
    const latin1 = await load({ 'p/posts/a.yaml': Buffer.from('title: Caf\xe9\r\nx: na\xefve\r\n', 'latin1') });
    expect(latin1.issues.map((i) => i.message)).toEqual(['not valid UTF-8 (byte 11 of the file): save the file as UTF-8']);
  });

  it('reports a raw NUL character with its line, in every kind of content file; an escaped one is a value like any other', async () => {
    const r = await load({
      'p/posts/a.md': '---\ntitle: ok\n---\n\nbody \0 here\n',
      'p/posts/b.yaml': 'title: "a\0b"\n',
      'p/posts/c.json': '{\n  "title": "a\0b"\n}\n',
      'p/posts/d.yaml': 'title: "a\\0b"\n',
      'p/posts/e.json': '{ "title": "a\\u0000b" }\n',
    });
    const message =
      'holds a NUL character, which no text format of content allows: save it as text (in YAML or JSON, write \\0 or \\u0000 in a quoted string)';
    expect(r.issues.map((i) => [i.file, i.line, i.message])).toEqual([
      ['p/posts/a.md', 5, message],
      ['p/posts/b.yaml', 1, message],
      ['p/posts/c.json', 2, message],
    ]);
    expect(entry(r, 'posts', 'd').values.title).toBe('a\0b');
    expect(entry(r, 'posts', 'e').values.title).toBe('a\0b');
  });

  it('says a file saved as UTF-16 (a byte order mark, or none and a NUL beside each ASCII character) is UTF-16, in every kind of content file', async () => {
    // Windows Notepad's "Unicode" and PowerShell's `>` write these; they used to get "not valid
    // UTF-8 (byte 1 of the file)" or the NUL character's message, neither saying what happened.
    const le = (text: string) => Buffer.from(text, 'utf16le');
    const be = (text: string) => le(text).swap16();
    const r = await load({
      'p/project.yaml': Buffer.concat([Buffer.from([0xff, 0xfe]), le('name: P\nlocales: [en]\n')]),
      'p/posts/_collection.yaml': Buffer.concat([Buffer.from([0xfe, 0xff]), be('fields:\n  title: text\n')]),
      'p/posts/a.md': le('---\ntitle: Café\n---\nBody\n'),
      'p/posts/b.yaml': be('title: B\n'),
      'p/posts/c.json': Buffer.concat([Buffer.from([0xff, 0xfe]), le('{ "title": "C" }\n')]),
      'p/media/a.png': png(1, 1),
      'p/media/_media.yaml': le('a.png: { alt: A }\n'),
    });
    const how =
      'not UTF-8: save the file as UTF-8 (Notepad: Save as, Encoding "UTF-8"; PowerShell: `| Set-Content -Encoding utf8` instead of `>`)';
    expect(r.issues.map((i) => [i.file, i.line, i.message])).toEqual([
      ['p/media/_media.yaml', 1, `saved as UTF-16 (little-endian, no byte order mark), ${how}`],
      ['p/posts/_collection.yaml', 1, `saved as UTF-16 (big-endian), ${how}`],
      ['p/posts/a.md', 1, `saved as UTF-16 (little-endian, no byte order mark), ${how}`],
      ['p/posts/b.yaml', 1, `saved as UTF-16 (big-endian, no byte order mark), ${how}`],
      ['p/posts/c.json', 1, `saved as UTF-16 (little-endian), ${how}`],
      ['p/project.yaml', 1, `saved as UTF-16 (little-endian), ${how}`],
    ]);
  });

  it('accepts a byte order mark and real U+FFFD characters', async () => {
    const r = await load({
      'p/posts/a.yaml': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('title: caf\u00e9 \ufffd\n')]),
      'p/posts/b.json': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"title": "x"}')]),
    });
    expect(r.issues).toEqual([]);
    expect(entry(r, 'posts', 'a').values.title).toBe('caf\u00e9 \ufffd');
  });
});

describe('a folder that cannot be listed', () => {
  it('is a content error naming the folder and what to do; the rest still loads', async () => {
    const root = writeTree({
      'p/project.yaml': 'id: p\n',
      'p/posts/a.md': '---\ntitle: A\n---\n',
      'p/posts/locked-by-test/b.md': '---\ntitle: B\n---\n',
    });
    const r = await loadContent(root);
    expect(r.issues).toEqual([
      {
        file: 'p/posts/locked-by-test/',
        message:
          'cannot list this folder (EACCES): give the user running cqa permission to read it, or start its name with _ to leave it out',
      },
    ]);
  });

  // As root, the loader runs without root's capabilities (setpriv drops them all), so that chmod 000
  // does stop it. Still root, it reads the checkout wherever that is (under a 0700 home, say).
  it.skipIf(isRoot && !existsSync('/usr/bin/setpriv'))('is reported for a real chmod 000 folder', async () => {
    const root = writeTree({ 'p/project.yaml': 'id: p\n', 'p/posts/a.md': '---\ntitle: A\n---\n' });
    mkdirSync(join(root, 'p/posts/closed'));
    chmodSync(join(root, 'p/posts/closed'), 0o000);
    chmodSync(root, 0o755);
    try {
      let issues: unknown;
      if (isRoot) {
        const script = `const { loadContent } = await import(${JSON.stringify(pathToFileURL(resolve('lib/node/content/load.js')).href)});
          console.log(JSON.stringify((await loadContent(${JSON.stringify(root)})).issues));`;
        const args = ['--bounding-set=-all', '--inh-caps=-all', process.execPath, '--input-type=module', '-e', script];
        const run = spawnSync('/usr/bin/setpriv', args, { timeout: 15_000, encoding: 'utf8' });
        expect(run.stderr).toBe('');
        issues = JSON.parse(run.stdout);
      } else {
        issues = (await loadContent(root)).issues;
      }
      expect(issues).toEqual([
        expect.objectContaining({ file: 'p/posts/closed/', message: expect.stringMatching(/^cannot list this folder \(EACCES\): /) }),
      ]);
    } finally {
      chmodSync(join(root, 'p/posts/closed'), 0o755);
    }
  });
});
