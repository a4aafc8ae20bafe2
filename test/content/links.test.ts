// Symbolic links: read only when they lead to a file inside the content folder, so a link can
// never publish a file from elsewhere on the machine.
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.js';
import { writeTree } from './helpers.js';

describe('symbolic links', () => {
  it('follows a link to a file inside the content folder and refuses links outside or to folders', async () => {
    const secret = join(mkdtempSync(join(tmpdir(), 'cqa-outside-')), 'secret.txt');
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
});
