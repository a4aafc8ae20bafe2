// Which request header and query parameter names carry a secret, for the request journal and
// every request log (journal.ts). Names are cut into parts (camelCase, snake_case, kebab-case,
// brackets, dots) and compared case-insensitively, so `accessToken`, `X-Authorization`,
// `api_key` and `where[session]` are all caught; a log that hides too much is the safe mistake.

/** Parts that name a secret on their own (a trailing `s` allowed: `tokens`, `keys`). */
const SECRET_PARTS = new Set([
  'token',
  'auth',
  'authorization',
  'authentication',
  'secret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'key',
  'apikey',
  'cookie',
  'session',
  'signature',
  'sig',
  'credential',
  'bearer',
  'jwt',
  'otp',
  'passcode',
  'passphrase',
  'pin',
  'pw',
]);

/** Words that give a secret away inside a longer part too (`xauthtoken`, `sessionid`, `privatekey`). */
const SECRET_WORDS =
  /token|secret|passw|passphrase|authoriz|authentic|credential|cookie|session|signature|bearer|apikey|accesskey|privatekey|accesscode|authcode/;

/** The parts of a name: `X-Api-Key` → x, api, key; `accessToken` → access, token; `APIKey` → api, key. One pass (no backtracking). */
function nameParts(name: string): string[] {
  const parts: string[] = [];
  let part = '';
  const kind = (c: string) => (c >= 'a' && c <= 'z' ? 1 : c >= 'A' && c <= 'Z' ? 2 : c >= '0' && c <= '9' ? 3 : 0);
  for (let i = 0; i < name.length; i++) {
    const c = name[i] as string;
    const k = kind(c);
    if (k === 0) {
      if (part) parts.push(part);
      part = '';
      continue;
    }
    // A new part at `aB` (camel) and at the last capital of `APIKey` (an acronym, then a word).
    const prev = i > 0 ? kind(name[i - 1] as string) : 0;
    const next = i + 1 < name.length ? kind(name[i + 1] as string) : 0;
    if (part && k === 2 && (prev === 1 || prev === 3 || (prev === 2 && next === 1))) {
      parts.push(part);
      part = '';
    }
    part += c.toLowerCase();
  }
  if (part) parts.push(part);
  return parts;
}

/**
 * Words that go with a secret in names written without separators (header names arrive lower-case:
 * `X-ApiKey` is `x-apikey`, `XAuth` is `xauth`): a part made only of these and secret parts is split.
 */
const FILLER = new Set([
  'x',
  'api',
  'access',
  'refresh',
  'client',
  'user',
  'id',
  'my',
  'set',
  'private',
  'public',
  'proxy',
  'app',
  'o',
  'csrf',
  'xsrf',
  'aws',
  'amz',
  'github',
  'gitlab',
  'google',
  'bot',
  'admin',
  'service',
  'account',
  'login',
  'header',
  'value',
  'hmac',
  'custom',
]);
const isSecretPart = (p: string) => SECRET_PARTS.has(p) || (p.endsWith('s') && SECRET_PARTS.has(p.slice(0, -1)));

/** Whether `part` splits into known words, one of them a secret part (`xapikey` → x, api, key). */
function joinedSecret(part: string): boolean {
  if (part.length > 64) return false;
  // reach[i]: 0 = the first i letters do not split, 1 = they split without a secret, 2 = with one.
  const reach = new Uint8Array(part.length + 1);
  reach[0] = 1;
  for (let i = 0; i < part.length; i++) {
    if (reach[i] === 0) continue;
    for (let j = i + 1; j <= part.length && j - i <= 16; j++) {
      const word = part.slice(i, j);
      const secret = isSecretPart(word);
      if (!secret && !FILLER.has(word)) continue;
      reach[j] = Math.max(reach[j] as number, secret ? 2 : (reach[i] as number));
    }
  }
  return reach[part.length] === 2;
}

/** Whether a header or query parameter called `name` likely carries a secret. */
export function isSecretName(name: string): boolean {
  const parts = nameParts(name);
  for (const [i, part] of parts.entries()) {
    if (isSecretPart(part) || SECRET_WORDS.test(part) || joinedSecret(part)) return true;
    // `access_code`, `authCode`, `verification-code`: a code that grants something.
    if (part === 'code' && i > 0 && CODE_OWNERS.has(parts[i - 1] as string)) return true;
  }
  return false;
}

/** Parts before `code` that make it a secret (OAuth's `code` alone is too common a name to hide). */
const CODE_OWNERS = new Set(['access', 'auth', 'authorization', 'verification', 'recovery', 'backup', 'security', 'reset', 'login']);

/** Authorization schemes whose name may be recorded (IANA's registry, plus the common `Token`). */
const SCHEMES = new Map(
  [
    'Basic',
    'Bearer',
    'Digest',
    'DPoP',
    'HOBA',
    'Mutual',
    'Negotiate',
    'NTLM',
    'OAuth',
    'PrivateToken',
    'SCRAM-SHA-1',
    'SCRAM-SHA-256',
    'vapid',
    'Token',
    'ApiKey',
    'AWS4-HMAC-SHA256',
  ].map((s) => [s.toLowerCase(), s]),
);
/** A token68 credential (RFC 9110 §11.2): `Bearer <this>`. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
/** auth-params (`Digest username="a", realm="b"`): name=value pairs, commas between. */
const AUTH_PARAMS =
  /^[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*=\s*(?:[^\s",]+|"(?:[^"\\]|\\.)*")(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*=\s*(?:[^\s",]+|"(?:[^"\\]|\\.)*"))*\s*,?$/;

/**
 * What the journal records of an Authorization value: the scheme's name when the value is a known
 * scheme followed by exactly one credential (`Bearer abc`); otherwise `invalid` — a bare token, or
 * `<secret> x`, would otherwise put the secret itself in the log. null without a value.
 */
export function authScheme(value: string | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  const space = v.search(/\s/);
  if (space < 0) return 'invalid';
  const scheme = SCHEMES.get(v.slice(0, space).toLowerCase());
  const rest = v.slice(space).trim();
  if (!scheme || rest === '') return 'invalid';
  return TOKEN68.test(rest) || AUTH_PARAMS.test(rest) ? scheme : 'invalid';
}
