// A name that is not found but would be if written as the author thinks they wrote it (found from
// outside: NFD accents from macOS, a non-breaking space pasted from a word processor, another case).
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/node/content/issues.js';
import { load, png } from './helpers.js';

describe('a name written almost as one that exists', () => {
  it('is still an error, with the name it would match and how it differs', async () => {
    const r = await load({
      'p/media/Logo.PNG': png(1, 1),
      'p/media/cafe\u0301.png': png(1, 1),
      'p/authors/hello.yaml': 'name: Hello\n',
      'p/posts/_collection.yaml':
        'fields:\n  kind: { type: enumeration, values: [café, news] }\n  cover: media\n  author: { type: relation, collection: authors }\n',
      'p/posts/a.yaml': 'kind: "cafe\u0301"\ncover: logo.png\nauthor: "hello\u00a0"\n',
      'p/posts/b.yaml': 'kind: News\ncover: café.png\nauthor: "\u200bhello"\n',
      'p/posts/c.yaml': 'kind: tea\ncover: none.png\nauthor: nobody\n',
    });
    expect(r.issues.map(formatIssue)).toEqual([
      `p/posts/a.yaml:1: kind: expected one of café, news, got "cafe\u0301"; did you mean 'café'? (the same letters, one with its accents written as separate characters (NFD, as macOS saves names))`,
      `p/posts/a.yaml:2: cover: no media file 'logo.png' under media/ (media ids are paths under the project's media/ folder); did you mean 'Logo.PNG'? (written in another case)`,
      `p/posts/a.yaml:3: author: no entry 'hello\\u00a0' in collection 'authors'; did you mean 'hello'? (with a non-breaking or other space, or blanks around it)`,
      `p/posts/b.yaml:1: kind: expected one of café, news, got "News"; did you mean 'news'? (written in another case)`,
      `p/posts/b.yaml:2: cover: no media file 'café.png' under media/ (media ids are paths under the project's media/ folder); did you mean 'cafe\u0301.png'? (the same letters, one with its accents written as separate characters (NFD, as macOS saves names))`,
      `p/posts/b.yaml:3: author: no entry '\\u200bhello' in collection 'authors'; did you mean 'hello'? (with an invisible character, as pasted text may hold)`,
      'p/posts/c.yaml:1: kind: expected one of café, news, got "tea"',
      "p/posts/c.yaml:2: cover: no media file 'none.png' under media/ (media ids are paths under the project's media/ folder)",
      "p/posts/c.yaml:3: author: no entry 'nobody' in collection 'authors'",
    ]);
  });
});

describe('a relation to an id spelt almost as one that exists', () => {
  it('names the id it would be (found from outside: victr for victor)', async () => {
    const r = await load({
      'p/authors/victor.yaml': 'name: Victor\n',
      'p/authors/ursula.yaml': 'name: Ursula\n',
      'p/posts/_collection.yaml': 'fields:\n  author: { type: relation, collection: authors }\n',
      'p/posts/a.yaml': 'author: victr\n',
      'p/posts/b.yaml': 'author: zed\n',
    });
    expect(r.issues.map(formatIssue)).toEqual([
      "p/posts/a.yaml:1: author: no entry 'victr' in collection 'authors'; did you mean 'victor'?",
      "p/posts/b.yaml:1: author: no entry 'zed' in collection 'authors'",
    ]);
  });
});
