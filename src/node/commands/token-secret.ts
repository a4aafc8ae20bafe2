// A new token and the sha256 a project.yaml keeps of it (`cqa token create`, `cqa init`).
import { createHash, randomBytes } from 'node:crypto';

export function newToken(): { token: string; sha256: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, sha256: createHash('sha256').update(token, 'utf8').digest('hex') };
}
