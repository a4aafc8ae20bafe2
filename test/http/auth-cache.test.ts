// The token check hashes a presented token once per snapshot: a valid token's digest is
// remembered (keyed by a keyed hash, never by the token); unknown tokens are hashed every time
// and never take a valid token's place; a new snapshot (a reload) starts afresh.
import { describe, expect, it } from 'vitest';
import { authorize, authorizeAudience } from '../../src/core/http/auth.js';
import { createSnapshot } from '../../src/core/snapshot/create.js';
import { makeModel, sha, tempDir, TOKENS } from './fixture.js';

function counting() {
  const seen: string[] = [];
  return {
    seen,
    sha256Hex: (token: string) => {
      seen.push(token);
      return sha(token);
    },
  };
}

describe('token digests', () => {
  const model = makeModel(tempDir());
  const snapshot = createSnapshot(model);
  const alpha = snapshot.projects.get('alpha')!;

  it('hashes a valid token once, then answers from the cache with the same verdict', () => {
    const { seen, sha256Hex } = counting();
    const first = authorize(snapshot, alpha, `Bearer ${TOKENS.drafts}`, sha256Hex);
    const again = authorize(snapshot, alpha, `Bearer ${TOKENS.drafts}`, sha256Hex);
    expect(first.kind).toBe('ok');
    expect(again).toBe(first);
    expect(seen).toEqual([TOKENS.drafts]);
    // /openapi.json's check shares it.
    expect(authorizeAudience(snapshot, `Bearer ${TOKENS.drafts}`, sha256Hex)).toEqual({ kind: 'ok', project: alpha });
    expect(seen).toHaveLength(1);
  });

  it('hashes an unknown token every time, and never lets it pass for a cached one', () => {
    const { seen, sha256Hex } = counting();
    for (let i = 0; i < 2; i++) expect(authorize(snapshot, alpha, `Bearer ${TOKENS.read}`, sha256Hex).kind).toBe('ok');
    for (const t of ['nope', 'nope', `${TOKENS.read}x`, TOKENS.read.slice(1)]) {
      expect(authorize(snapshot, alpha, `Bearer ${t}`, sha256Hex).kind).toBe('unauthorized');
    }
    expect(seen).toEqual([TOKENS.read, 'nope', 'nope', `${TOKENS.read}x`, TOKENS.read.slice(1)]);
  });

  it('keeps a token of another project answering as before (not found), from the cache too', () => {
    const { seen, sha256Hex } = counting();
    expect(authorize(snapshot, alpha, `Bearer ${TOKENS.beta}`, sha256Hex)).toEqual({ kind: 'not_found' });
    expect(authorize(snapshot, alpha, `Bearer ${TOKENS.beta}`, sha256Hex)).toEqual({ kind: 'not_found' });
    expect(seen).toEqual([TOKENS.beta]);
  });

  it('starts afresh for a new snapshot: a token removed by a reload is refused', () => {
    const { seen, sha256Hex } = counting();
    const before = createSnapshot(model);
    for (let i = 0; i < 2; i++)
      expect(authorize(before, before.projects.get('alpha')!, `Bearer ${TOKENS.read}`, sha256Hex).kind).toBe('ok');
    const edited = structuredClone(model);
    const p = edited.projects.find((x) => x.id === 'alpha')!;
    (p as { tokens: readonly unknown[] }).tokens = p.tokens.filter((t) => t.sha256 !== sha(TOKENS.read));
    const after = createSnapshot(edited);
    expect(authorize(after, after.projects.get('alpha')!, `Bearer ${TOKENS.read}`, sha256Hex).kind).toBe('unauthorized');
    expect(seen).toEqual([TOKENS.read, TOKENS.read]);
  });
});
