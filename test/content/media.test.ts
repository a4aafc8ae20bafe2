import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { entry, load, png, project } from './helpers.js';

describe('media', () => {
  it('lists every file under media/ sorted by id, with mime type, size, image size, caption and alt', async () => {
    const image = png(3, 2);
    const r = await load({
      'p/media/photos/b.png': image,
      'p/media/a.pdf': '%PDF-1.4',
      'p/media/data.unknownext': 'x',
      'p/media/_media.yaml': 'photos/b.png:\n  caption: A photo\n  alt: Black pixels\na.pdf: { caption: The manual }\n',
      'p/media/.DS_Store': 'x',
      'p/media/_notes.txt': 'x',
    });
    expect(r.issues).toEqual([]);
    expect(project(r).media).toEqual([
      {
        id: 'a.pdf',
        file_name: 'a.pdf',
        mime_type: 'application/pdf',
        size: 8,
        width: null,
        height: null,
        caption: 'The manual',
        alt: null,
        source: join(r.root, 'p/media/a.pdf'),
      },
      {
        id: 'data.unknownext',
        file_name: 'data.unknownext',
        mime_type: 'application/octet-stream',
        size: 1,
        width: null,
        height: null,
        caption: null,
        alt: null,
        source: join(r.root, 'p/media/data.unknownext'),
      },
      {
        id: 'photos/b.png',
        file_name: 'b.png',
        mime_type: 'image/png',
        size: image.length,
        width: 3,
        height: 2,
        caption: 'A photo',
        alt: 'Black pixels',
        source: join(r.root, 'p/media/photos/b.png'),
      },
    ]);
  });

  it('reports _media.yaml keys that name no file, and bad metadata', async () => {
    const r = await load({
      'p/media/a.png': png(1, 1),
      'p/media/_media.yaml': 'a.png: { caption: [x], size: 3 }\nmissing.png: { alt: x }\n',
    });
    expect(r.issues).toEqual([
      { file: 'p/media/_media.yaml', line: 1, field: 'a.png', message: "unknown key 'size'; media keys are caption, alt" },
      { file: 'p/media/_media.yaml', line: 1, field: 'a.png', message: 'caption: expected text, got a list' },
      {
        file: 'p/media/_media.yaml',
        line: 2,
        field: 'missing.png',
        message: "no media file 'missing.png' under media/ (keys are paths under media/, like images/cover.jpg)",
      },
    ]);
  });

  // Found from outside: a 0-byte image got no warning, a 7-byte garbage one did.
  // Found from outside: Thumbs.db and desktop.ini were listed as media, with URLs.
  it('skips what Windows, Office, editors and browsers leave in media/, with a warning', async () => {
    const r = await load({
      'p/media/a.png': png(1, 1),
      'p/media/Thumbs.db': 'x',
      'p/media/photos/desktop.ini': 'x',
      'p/media/~$report.docx': 'x',
      'p/media/a.png~': 'x',
      'p/media/video.mp4.crdownload': 'x',
      'p/media/tilde~name.png': png(1, 1),
    });
    expect(r.issues).toEqual([]);
    const message =
      'skipped: a file the system or an editor makes (a thumbnail cache, a lock, a backup or a partial download), not media: delete it';
    expect(r.warnings).toEqual(
      ['p/media/Thumbs.db', 'p/media/a.png~', 'p/media/photos/desktop.ini', 'p/media/video.mp4.crdownload', 'p/media/~$report.docx'].map(
        (file) => ({ file, message }),
      ),
    );
    expect(r.model.projects[0]?.media.map((m) => m.id)).toEqual(['a.png', 'tilde~name.png']);
  });

  it('warns of an empty media file, image or not', async () => {
    const r = await load({ 'p/media/empty.jpg': '', 'p/media/docs/empty.pdf': '', 'p/media/icon.svg': '' });
    expect(r.issues).toEqual([]);
    const message = 'empty file (0 bytes): it would be served with nothing in it; replace it with the real file, or remove it';
    expect(r.warnings).toEqual([
      { file: 'p/media/docs/empty.pdf', message },
      { file: 'p/media/empty.jpg', message },
      { file: 'p/media/icon.svg', message },
    ]);
  });

  it('gives a broken image no size instead of failing, with a warning naming the file (an SVG without a size: none)', async () => {
    const r = await load({ 'p/media/broken.png': 'not really a png', 'p/media/icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' });
    expect(r.issues).toEqual([]);
    expect(project(r).media[0]).toMatchObject({ id: 'broken.png', mime_type: 'image/png', width: null, height: null });
    expect(r.warnings).toEqual([
      {
        file: 'p/media/broken.png',
        message:
          'not a readable image/png image: its width and height could not be read, so they are served as null; replace the file, or give it the extension of what it holds',
      },
    ]);
  });
});

describe('references', () => {
  it('resolves media and relation ids, single and multiple, across collections', async () => {
    const r = await load({
      'p/media/covers/x.png': png(1, 1),
      'p/authors/ann.yaml': 'name: Ann\n',
      'p/authors/bob.yaml': 'name: Bob\ndraft: true\n',
      'p/posts/_collection.yaml': `fields:
  cover: media
  gallery: { type: media, multiple: true }
  author: { type: relation, collection: authors }
  related: { type: relation, collection: posts, multiple: true }
`,
      'p/posts/one.yaml': 'cover: covers/x.png\ngallery: [covers/x.png]\nauthor: ann\nrelated: [two]\n',
      'p/posts/two.yaml': 'author: bob\nrelated: [one, two]\n',
    });
    expect(r.issues).toEqual([]);
    expect(entry(r, 'posts', 'one').values).toEqual({ cover: 'covers/x.png', gallery: ['covers/x.png'], author: 'ann', related: ['two'] });
    expect(entry(r, 'posts', 'two').values).toEqual({ author: 'bob', related: ['one', 'two'] });
  });
});
