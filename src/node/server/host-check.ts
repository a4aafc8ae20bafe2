// DNS rebinding (docs/security.md#dns-rebinding): a web page of any site can have its own name
// resolve to 127.0.0.1 after it has loaded, and then read what a server on this machine answers
// as a page of its own origin, which no CORS header stops: a local `cqa serve --watch`'s /healthz
// (content errors that quote drafts and hidden values), the media of private projects, and the
// whole tree `cqa preview` serves of a build made with --include-private. A server that listens on
// a loopback address is only ever asked for by a loopback name or an address, so it answers no
// request whose Host header names anything else. No Node imports beyond types.

/** Whether `host` (what the server listens on) is a loopback address or `localhost`. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
  );
}

/** The name in a Host header (`name`, `name:port`, `[v6]:port`), lower case and without a final dot. */
function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

/**
 * Whether a loopback server may answer a request with this Host header: none at all (HTTP/1.0;
 * browsers always send one), an IP address (no DNS answer can change what it names), `localhost`
 * or a name under `.localhost` (browsers resolve those to loopback themselves), or a name in
 * `allowed` (exact, or every name under it when written `.example.com`).
 */
export function hostAllowed(header: string | undefined, allowed: readonly string[] = []): boolean {
  if (header === undefined || header.trim() === '') return true;
  const name = hostName(header);
  // Only what a host name or an address holds: `evil.com#.localhost` ends as a name under
  // .localhost, but names another host (found from outside; no browser sends it, HTTP refuses it).
  if (!/^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])$/.test(name)) return false;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name) || /^\[[0-9a-f:.]+\]$/.test(name)) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return allowed.some((a) => {
    const n = a.trim().toLowerCase().replace(/\.$/, '');
    return n.startsWith('.') ? name === n.slice(1) || name.endsWith(n) : name === n;
  });
}

/** What the refusal says: why, and the option that serves such a name. */
export function hostRefusal(header: string, listening: string, option: string): string {
  return (
    `this server listens on ${listening} and answers requests for localhost or an IP address only, not for '${hostName(header)}': ` +
    'a web page whose name was made to resolve to this machine (DNS rebinding) could read it otherwise. ' +
    `To serve that name (a proxy that passes its Host on), ${option}`
  );
}
