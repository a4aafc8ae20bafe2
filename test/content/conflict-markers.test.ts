// An unresolved git merge conflict in a content file (found from outside: in a Markdown body both
// sides were published, in YAML the message spoke of a missing ':').
import { describe, expect, it } from 'vitest';
import { load } from './helpers.js';

const CONFLICT = '<<<<<<< HEAD\nMine\n=======\nTheirs\n>>>>>>> feature\n';

describe('git conflict markers', () => {
  it('are an error naming both marker lines, in Markdown bodies, front matter, YAML, JSON and settings files', async () => {
    const r = await load({
      'p/posts/a.md': `---\ntitle: A\n---\nIntro\n${CONFLICT}`,
      'p/posts/b.md': `---\n${'<<<<<<< HEAD\ntitle: B\n=======\ntitle: Bee\n>>>>>>> feature\n'}---\nBody\n`,
      'p/posts/c.yaml': `title: C\n${CONFLICT}`,
      'p/posts/d.json': `{\n${CONFLICT}}\n`,
      'p/notes/_collection.yaml': `fields:\n${CONFLICT}`,
    });
    expect(r.issues.map((i) => `${i.file}:${i.line}: ${i.message}`)).toEqual([
      'p/notes/_collection.yaml:2: holds an unresolved git merge conflict (<<<<<<< on line 2, >>>>>>> on line 6): keep the side you want, and remove the marker lines',
      'p/posts/a.md:5: holds an unresolved git merge conflict (<<<<<<< on line 5, >>>>>>> on line 9): keep the side you want, and remove the marker lines',
      'p/posts/b.md:2: holds an unresolved git merge conflict (<<<<<<< on line 2, >>>>>>> on line 6): keep the side you want, and remove the marker lines',
      'p/posts/c.yaml:2: holds an unresolved git merge conflict (<<<<<<< on line 2, >>>>>>> on line 6): keep the side you want, and remove the marker lines',
      'p/posts/d.json:2: holds an unresolved git merge conflict (<<<<<<< on line 2, >>>>>>> on line 6): keep the side you want, and remove the marker lines',
    ]);
  });

  it('are text in a fenced code block, and a lone marker-like line is text', async () => {
    const r = await load({
      'p/posts/git.md': `---\ntitle: Resolving conflicts\n---\nA conflict looks like this:\n\n\`\`\`\n${CONFLICT}\`\`\`\n\n~~~text\n${CONFLICT}~~~\n`,
      'p/posts/rule.md': '---\ntitle: Rule\n---\nAbove\n=======\n\n<<<<<<< not closed\n',
    });
    expect(r.issues).toEqual([]);
    expect(r.model.projects[0]?.collections[0]?.entries.find((e) => e.id === 'git')?.values.body).toContain('>>>>>>> feature');
  });
});
