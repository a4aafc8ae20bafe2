// Bearer tokens. Only the sha256 of a token is ever kept (project.yaml holds hashes; plaintext
// fixture tokens are hashed at load time), so the presented token is hashed and the digest looked
// up in the project's map. Timing of that lookup can at most depend on the digest, never on the
// secret itself: finding a token that hashes close to a known digest is a preimage attack on
// SHA-256. The plaintext is never stored, logged or compared.
//
// Hashing is most of the cost of an authorized request, so the digest of a token that turned out
// valid is remembered — keyed not by the token but by a 106-bit keyed hash of it (random key per
// process), for this snapshot only (a swap starts afresh). Why that is safe: docs/security.md.
import type { Scope } from '../model/model.js';
import type { ProjectSnapshot, Snapshot } from '../model/types.js';
import type { Problem } from './problem.js';
import type { RequestPieces } from './journal.js';

export const REALM = 'Bearer realm="cqa"';

export type AuthOutcome =
  | { readonly kind: 'ok'; readonly scopes: ReadonlySet<Scope>; readonly tokenUsed: boolean }
  | { readonly kind: 'unauthorized'; readonly problem: Problem; readonly challenge: string }
  /** A valid token of another project: answered exactly like a project that does not exist. */
  | { readonly kind: 'not_found' }
  | { readonly kind: 'forbidden'; readonly problem: Problem };

const READ: ReadonlySet<Scope> = new Set<Scope>(['read']);
const PUBLIC_READ: AuthOutcome = { kind: 'ok', scopes: READ, tokenUsed: false };
/** The outcome for each token, made once (no allocation per request). */
const granted = new WeakMap<object, AuthOutcome & { kind: 'ok' }>();
const B64TOKEN = /^[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9\-._~+/]+=*) *$/;

type Unauthorized = Extract<AuthOutcome, { kind: 'unauthorized' }>;
const MALFORMED: Unauthorized = {
  kind: 'unauthorized',
  challenge: `${REALM}, error="invalid_request"`,
  problem: {
    status: 401,
    code: 'malformed_authorization',
    // Not 'Bearer <token>': found from outside, 'Bearer <demo-token>' was sent, and then told the same.
    detail:
      "the Authorization header must be 'Bearer ' and the token itself: no <>, quotes or spaces around the token, one header per request",
  },
};
const INVALID_TOKEN: Unauthorized = {
  kind: 'unauthorized',
  challenge: `${REALM}, error="invalid_token"`,
  problem: { status: 401, code: 'invalid_token', detail: 'the token is not valid: check the Authorization header' },
};

const OTHER_PROJECT_ON_PUBLIC: Unauthorized = {
  kind: 'unauthorized',
  challenge: `${REALM}, error="invalid_token"`,
  problem: {
    status: 401,
    code: 'invalid_token',
    detail: 'this project is public and needs no token, and the token sent belongs to another project: leave out the Authorization header',
  },
};

/** sha256 hex → the project whose token it is, over every project of the snapshot. */
const owners = new WeakMap<Snapshot, ReadonlyMap<string, ProjectSnapshot>>();
function ownersOf(snapshot: Snapshot): ReadonlyMap<string, ProjectSnapshot> {
  let map = owners.get(snapshot);
  if (!map) {
    map = new Map([...snapshot.projects.values()].flatMap((p) => [...p.tokens.keys()].map((h): [string, ProjectSnapshot] => [h, p])));
    owners.set(snapshot, map);
  }
  return map;
}

/** Presented tokens that were valid: keyed hash → sha256 hex, per snapshot (a swap clears it). */
const digests = new WeakMap<Snapshot, Map<string, string>>();
const DIGESTS_MAX = 1024;
let seeds: Uint32Array | undefined;

/**
 * A 106-bit hash of `token` under a random per-process key: two independent 53-bit halves, each
 * two 32-bit multiply-xorshift lanes. Not a digest to publish: only a cache key that cannot be
 * aimed at without the key (docs/security.md). answer-memo.ts compares the halves as they are.
 */
export function credentialHash(token: string): readonly [number, number] {
  // Made on first use, not at import: edge runtimes refuse randomness outside a request.
  seeds ??= globalThis.crypto.getRandomValues(new Uint32Array(8));
  return [half(token, seeds, 0), half(token, seeds, 4)];
}

/**
 * Keys credentialHash() with `random()` (8 random words) if it has no key yet: the Node adapter's
 * come from node:crypto, where Node's first `globalThis.crypto` loads Web Crypto during a cold
 * start's first authorised answer (~4 ms, docs/performance.md#start-up).
 */
export function keyCredentialHash(random: () => Uint32Array): void {
  seeds ??= random();
}

function tokenKey(token: string): string {
  const [a, b] = credentialHash(token);
  return `${a}:${b}`;
}

function half(token: string, seeds: Uint32Array, at: number): number {
  let h1 = (seeds[at] as number) ^ token.length;
  let h2 = seeds[at + 1] as number;
  const s2 = seeds[at + 2] as number;
  const s3 = seeds[at + 3] as number;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i) ^ s2;
    h1 = Math.imul(h1 ^ c, 0x9e3779b1);
    h2 = Math.imul(h2 ^ c ^ s3, 0x5f356495);
    h2 = (h2 << 13) | (h2 >>> 19);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b) ^ Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  return 2 ** 21 * (h1 >>> 0) + (h2 >>> 11);
}

/** sha256Hex(token), remembered for tokens that belong to a project of `snapshot`. */
function digestOf(snapshot: Snapshot, token: string, sha256Hex: (token: string) => string): string {
  let cache = digests.get(snapshot);
  if (!cache) digests.set(snapshot, (cache = new Map()));
  const key = tokenKey(token);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const hash = sha256Hex(token);
  // Only valid tokens: a stream of made-up ones is hashed every time and never fills the cache.
  if (ownersOf(snapshot).has(hash)) {
    if (cache.size >= DIGESTS_MAX) cache.clear();
    cache.set(key, hash);
  }
  return hash;
}

export function authorize(
  snapshot: Snapshot,
  project: ProjectSnapshot,
  authorization: string | undefined,
  sha256Hex: (token: string) => string,
): AuthOutcome {
  if (authorization === undefined || authorization === '') {
    if (project.record.public) return PUBLIC_READ;
    return {
      kind: 'unauthorized',
      challenge: REALM,
      problem: {
        status: 401,
        code: 'missing_token',
        detail: "this project needs a token: send the header 'Authorization: Bearer <token>'",
      },
    };
  }
  const m = B64TOKEN.exec(authorization);
  if (!m) return MALFORMED;
  const hash = digestOf(snapshot, m[1] as string, sha256Hex);
  const record = project.tokens.get(hash);
  if (!record) {
    if (ownersOf(snapshot).has(hash)) {
      // The same URL answers without a token: say so, rather than pretend the project is not there.
      if (project.record.public) return OTHER_PROJECT_ON_PUBLIC;
      return { kind: 'not_found' };
    }
    return INVALID_TOKEN;
  }
  if (!record.scopes.includes('read') && !record.scopes.includes('drafts')) {
    return {
      kind: 'forbidden',
      problem: { status: 403, code: 'insufficient_scope', detail: `the token '${record.name}' has neither the read nor the drafts scope` },
    };
  }
  let ok = granted.get(record);
  if (!ok) {
    ok = { kind: 'ok', scopes: new Set<Scope>(['read', ...record.scopes]), tokenUsed: true };
    granted.set(record, ok);
  }
  return ok;
}

export type AudienceOutcome =
  /** `project`: the token's project; undefined when no token was sent (public projects only). */
  { readonly kind: 'ok'; readonly project: ProjectSnapshot | undefined } | Unauthorized | Extract<AuthOutcome, { kind: 'forbidden' }>;

/**
 * Who is asking, for answers that span projects (/openapi.json): nobody in particular without an
 * Authorization header, else the project of the token — checked by the same rules as authorize(),
 * so a malformed or unknown token is a 401 and a token without read or drafts a 403.
 */
export function authorizeAudience(
  snapshot: Snapshot,
  authorization: string | undefined,
  sha256Hex: (token: string) => string,
): AudienceOutcome {
  if (authorization === undefined || authorization === '') return { kind: 'ok', project: undefined };
  const m = B64TOKEN.exec(authorization);
  if (!m) return MALFORMED;
  const hash = digestOf(snapshot, m[1] as string, sha256Hex);
  const owner = ownersOf(snapshot).get(hash);
  if (!owner) return INVALID_TOKEN;
  const outcome = authorize(snapshot, owner, authorization, () => hash);
  if (outcome.kind === 'ok') return { kind: 'ok', project: owner };
  return outcome.kind === 'not_found' ? INVALID_TOKEN : outcome; // (not_found: impossible, owner holds the token)
}

/**
 * Which of `pieces` are tokens of a project of `snapshot`: a token pasted where no header name
 * says it is one (a path segment, a query parameter's name or value) is left out of logs too.
 */
export function tokensAmong(snapshot: Snapshot, cut: () => RequestPieces, sha256Hex: (token: string) => string): string[] {
  const owners = ownersOf(snapshot);
  // A snapshot without tokens (public projects only): the request is not even cut into pieces.
  if (owners.size === 0) return [];
  const { pieces, unchecked } = cut();
  return [...pieces.filter((piece) => owners.has(sha256Hex(piece))), ...unchecked];
}
