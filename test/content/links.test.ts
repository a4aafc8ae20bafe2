// Symbolic links: read only when they lead to a file inside the content folder, so a link can
// never publish a file from elsewhere on the machine.
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/node/content/load.js';
import { writeTree } from './helpers.js';
import { makeTempDir } from '../temp-roots.js';

describe('symbolic links', () => {
  it('follows a link to a file inside the content folder and refuses links outside or to folders', async () => {
    const secret = join(makeTempDir('cqa-outside-'), 'secret.txt');
    writeFileSync(secret, 'not content');
    const root = writeTree({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/media/real.txt': 'hello',
      'p/posts/a.yaml': 'title: A\n',
    });
    symlinkSync(join(root, 'p/media/real.txt'), join(root, 'p/media/alias.txt'));
    symlinkSync(secret, join(root, 'p/media/secret.txt'));
    symlinkSync('/etc', join(root, 'p/media/etc'));

    const { model, issues } = await loadContent(root);
    expect(issues.map((i) => [i.file, i.message])).toEqual([
      ['p/media/etc', 'not read: a symbolic link is followed only to a file inside the content folder'],
      ['p/media/secret.txt', 'not read: a symbolic link is followed only to a file inside the content folder'],
    ]);
    const media = model.projects[0]?.media.map((m) => [m.id, m.size]);
    expect(media).toEqual([
      ['alias.txt', 5],
      ['real.txt', 5],
    ]);
  });

  // Found from outside: both were said to lead outside the content folder.
  it('a dangling link, and a link to a folder inside the tree, are said as what they are', async () => {
    const root = writeTree({ 'p/project.yaml': 'id: p\n', 'p/posts/a.yaml': 'title: A\n' });
    symlinkSync('nowhere', join(root, 'p/posts/broken.md'));
    symlinkSync('../posts', join(root, 'p/posts/loop'));
    execFileSync('mkfifo', [join(root, 'p/fifo')]);
    symlinkSync('../fifo', join(root, 'p/posts/pipe.md'));
    const { issues } = await loadContent(root);
    expect(issues.map((i) => [i.file, i.message])).toEqual([
      [
        'p/posts/broken.md',
        "not read: a symbolic link to 'nowhere', which does not exist: remove the link, or make it lead to an existing file",
      ],
      [
        'p/posts/loop',
        "not read: a symbolic link to the folder '../posts': links are followed to files only, never to folders: link each file, or move the folder here",
      ],
      [
        'p/posts/pipe.md',
        "not read: a symbolic link to '../fifo', which is not a regular file (a FIFO, socket or device): remove the link or move it out of the content folder",
      ],
    ]);
  });

  it('publishes a media link only to a media file of the same project, an entry link only to an entry of the same collection, never to a settings file', async () => {
    const root = writeTree({
      'p/project.yaml': 'id: p\ntokens:\n  - name: t\n    token: secret-token-123\n    scopes: [read]\n',
      'p/media/real.txt': 'hello',
      'p/media/_media.yaml': 'real.txt: { caption: Real }\n',
      'p/posts/a.yaml': 'title: A\n',
      'p/posts/_collection.yaml': 'fields:\n  title: text\n',
      'p/secrets/_collection.yaml': 'fields:\n  title: text\n  ssn: { type: text, hidden: true }\n',
      'p/secrets/s.md': '---\ntitle: S\nssn: 123-45-6789\n---\n',
      'p/open/a.md': '---\ntitle: Open\n---\n',
      'p/posts/sub/b.yaml': 'title: B\n',
      'q/project.yaml': 'id: q\ntokens:\n  - name: t\n    token: secret-token-456\n    scopes: [read]\n',
      'q/media/other.txt': 'other project',
      'q/posts/private.md': '---\ntitle: Private\n---\n',
    });
    const link = (target: string, at: string) => symlinkSync(target, join(root, at));
    link('../project.yaml', 'p/media/p.txt');
    link('../posts/_collection.yaml', 'p/media/c.txt');
    link('_media.yaml', 'p/media/m.txt');
    link('../posts/a.yaml', 'p/media/entry.txt');
    link('../../q/media/other.txt', 'p/media/other.txt');
    link('real.txt', 'p/media/alias.txt');
    link('../project.yaml', 'p/posts/tokens.yaml');
    link('_collection.yaml', 'p/posts/config.yaml');
    link('../media/real.txt', 'p/posts/real.yaml');
    link('a.yaml', 'p/posts/same.yaml');
    link('../a.yaml', 'p/posts/sub/up.yaml');
    // Found from outside: read under a schema-less collection, another collection's hidden field
    // was published, and another project's entry was served without that project's token.
    link('../secrets/s.md', 'p/open/leak.md');
    link('../../q/posts/private.md', 'p/open/private.md');

    const { model, issues } = await loadContent(root);
    const media =
      'not published: a symbolic link in media/ may lead only to another media file of this project (under p/media/, not named _… or .…)';
    const entry = (c: string) =>
      `not read: a symbolic link to an entry may lead only to another entry file of the same collection (under p/${c}/, not named _… or .…), which is read under the same schema`;
    expect(issues.map((i) => [i.file, i.message])).toEqual([
      ['p/media/c.txt', media],
      ['p/media/entry.txt', media],
      ['p/media/m.txt', media],
      ['p/media/other.txt', media],
      ['p/media/p.txt', media],
      ['p/open/leak.md', entry('open')],
      ['p/open/private.md', entry('open')],
      ['p/posts/config.yaml', entry('posts')],
      ['p/posts/real.yaml', entry('posts')],
      ['p/posts/tokens.yaml', entry('posts')],
    ]);
    const p = model.projects.find((p) => p.id === 'p');
    expect(p?.media.map((m) => m.id)).toEqual(['alias.txt', 'real.txt']);
    // A link within its collection is an entry as before.
    expect(p?.collections.find((c) => c.slug === 'posts')?.entries.map((e) => e.id)).toEqual(expect.arrayContaining(['same', 'up']));
    expect(p?.collections.find((c) => c.slug === 'open')?.entries.map((e) => e.id)).toEqual(['a']);
  });

  it("refuses a hard link to a settings file, as an entry or as media (found from outside: another project's tokens were published)", async () => {
    const root = writeTree({
      'p/project.yaml': 'id: p\npublic: true\n',
      'p/notes/a.yaml': 'title: A\n',
      'q/project.yaml': 'id: q\ntokens:\n  - name: t\n    token: secret-token-789\n    scopes: [read]\n',
      'q/posts/_collection.yaml': 'fields:\n  title: text\n',
    });
    linkSync(join(root, 'q/project.yaml'), join(root, 'p/notes/leak.yaml'));
    mkdirSync(join(root, 'p/media'));
    linkSync(join(root, 'q/posts/_collection.yaml'), join(root, 'p/media/schema.txt'));
    const { model, issues } = await loadContent(root);
    expect(issues.map((i) => [i.file, i.message])).toEqual([
      [
        'p/media/schema.txt',
        'not read: a hard link to q/posts/_collection.yaml (the same file under another name), which would publish it: remove it',
      ],
      [
        'p/notes/leak.yaml',
        'not read: a hard link to q/project.yaml (the same file under another name), which would publish it: remove it',
      ],
    ]);
    expect(JSON.stringify(model.projects.find((p) => p.id === 'p'))).not.toContain('secret-token-789');
  });
});
