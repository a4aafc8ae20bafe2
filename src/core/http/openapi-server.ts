// The `servers` entry of a served /openapi.json. The snapshot's documents name the base URL, or
// `/` without one (relative: the origin the document was fetched from, which is right for a
// static host but which many generators and tools do not resolve). A server that knows where it
// is reachable names that instead. Never the request's Host header: anyone can send any, and a
// shared cache would hand the answer to everyone. No Node imports.

/** The document with `servers` set to `url` alone (every other key and its order kept). */
export function withServerUrl(documentText: string, url: string): string {
  const doc = JSON.parse(documentText) as Record<string, unknown>;
  doc.servers = [{ url, description: 'this server' }];
  return JSON.stringify(doc);
}
