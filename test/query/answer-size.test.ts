// A list too long to answer is refused before its entries' texts are decoded, where the snapshot
// holds them as UTF-8 (`cqa serve` of a large tree: the load process sends them so). Found from
// outside: 20,000 entries embedding related ones, 1.6 G characters, were decoded whole before the
// 400 — 2–5 s of a blocked server per request, RSS 2.4 → 3.9 GB under four of them.
import { describe, expect, it } from 'vitest';
import { overMaxChars, refuseLongTexts } from '../../src/core/query/answer-size.js';
import { queryEntries } from '../../src/core/query/index.js';
import { ProblemError } from '../../src/core/query/problems.js';
import type { CollectionSnapshot, EntrySnapshot } from '../../src/core/model/types.js';
import { documentPieces } from '../../src/core/snapshot/document-pieces.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { loadContent } from '../../src/node/content/load.js';

const MIB = 2 ** 20;
/** 33 MiB of ASCII: two of them pass the 64 Mi characters an answer may hold. */
const ascii = new Uint8Array(33 * MIB).fill(0x61);
/** 11 Mi characters of three bytes each (U+4E2D): 33 MiB of UTF-8, well within the limit as characters. */
const cjk = new Uint8Array(33 * MIB).map((_, i) => [0xe4, 0xb8, 0xad][i % 3] as number);

describe('overMaxChars', () => {
  it('counts characters from UTF-8 bytes: 66 MiB of ASCII are too many, 66 MiB of three-byte characters are not', () => {
    expect(overMaxChars([ascii, ascii])).toBe(true);
    expect(overMaxChars([cjk, cjk])).toBe(false);
    expect(overMaxChars([ascii])).toBe(false);
    // Two code units per four-byte character (U+1F600): 33 Mi + 32 Mi characters (were they one each, 33 + 16).
    const emoji = new Uint8Array(64 * MIB).map((_, i) => [0xf0, 0x9f, 0x98, 0x80][i % 4] as number);
    expect(overMaxChars([ascii, emoji])).toBe(true);
  });
});

describe('a list over the answer bound, held as UTF-8', () => {
  it('is a 400 answer_too_large from the engine and the document path, with no entry text decoded', async () => {
    const { model, issues } = await loadContent('content');
    expect(issues).toEqual([]);
    const snapshot = createSnapshot(model);
    const project = snapshot.projects.get('demo');
    const posts = project?.collections.get('posts');
    if (!project || !posts) throw new Error('the sample has demo/posts');
    let decoded = 0;
    const held = (e: EntrySnapshot): EntrySnapshot =>
      Object.create(e, {
        utf8: { value: () => ascii },
        json: {
          get() {
            decoded++;
            return e.json;
          },
        },
      });
    const big: CollectionSnapshot = { ...posts, entries: posts.entries.map(held) };
    (project.collections as Map<string, CollectionSnapshot>).set('posts', big);
    const ctx = { scopes: new Set(['read' as const]), maxLimit: 0 };
    for (const [query, utf8] of [
      ['', true],
      ['', false],
      ['timestamps', false],
      ['where[locale]=en&sort=title:desc', true],
    ] as const) {
      const outcome = queryEntries(project, big, query, { ...ctx, utf8 });
      expect(outcome.ok, query).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.problem).toMatchObject({ status: 400, code: 'answer_too_large', param: 'limit' });
      expect(outcome.problem.detail).toMatch(
        /^this answer \(\d+ items\) would be more than the 67,108,864 characters one answer may hold \([\d,]+ bytes as UTF-8\): ask for fewer entries with limit \(\d+ of this size would fit\)/,
      );
    }
    expect(() => documentPieces(snapshot, '/api/demo/posts', refuseLongTexts)).toThrow(ProblemError);
    expect(decoded).toBe(0);
    // A page that fits is answered from them as before.
    expect(queryEntries(project, big, 'limit=1', { ...ctx, utf8: true }).ok).toBe(true);
  });
});
