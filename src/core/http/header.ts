// One request header as a string: node:http gives a list for a header sent twice.
import type { CoreRequest } from './core.js';

export function header(headers: CoreRequest['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}
