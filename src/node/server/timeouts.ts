// How often node:http checks its connections against headersTimeout and requestTimeout: Node's
// default, 30 s, let a client that never finishes its headers hold a socket ~35 s, not the 10 s
// docs/security.md says. Checked every second, the timeouts of cqa serve and cqa preview hold to it.
export const CONNECTIONS_CHECK_MS = 1_000;
