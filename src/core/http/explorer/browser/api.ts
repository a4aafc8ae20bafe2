// The page's requests to its own server. The token lives in one variable of this module (inside
// the bundle's closure): never in storage, a cookie, a URL or the page; its field is emptied by
// main.ts as soon as it is read.

let token = '';

export const tokenInUse = (): boolean => token !== '';
export function useToken(value: string): void {
  token = value;
}

export interface Answer {
  readonly path: string;
  /** 0: no answer (network error). */
  readonly status: number;
  readonly statusText: string;
  readonly text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  readonly body: unknown;
  readonly headers: readonly (readonly [string, string])[];
  /** Milliseconds from sending to the whole body read. */
  readonly ms: number;
  /** Bytes of the body as the page read it (after any Content-Encoding). */
  readonly bytes: number;
  /** Whether the request carried the token. */
  readonly withToken: boolean;
}

/** One request, as a client sends it: Accept JSON, the token unless `anonymous`. */
export async function api(path: string, anonymous = false, extra: Record<string, string> = {}): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', ...extra };
  const withToken = token !== '' && !anonymous;
  if (withToken) headers.Authorization = `Bearer ${token}`;
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(path, { headers, cache: 'no-store', credentials: 'omit' });
  } catch (err) {
    return {
      path,
      status: 0,
      statusText: 'network error',
      text: String(err),
      body: undefined,
      headers: [],
      ms: performance.now() - started,
      bytes: 0,
      withToken,
    };
  }
  const buffer = await res.arrayBuffer();
  const ms = performance.now() - started;
  const text = new TextDecoder().decode(buffer);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return {
    path,
    status: res.status,
    statusText: res.statusText,
    text,
    body,
    headers: [...res.headers],
    ms,
    bytes: buffer.byteLength,
    withToken,
  };
}

/** What an error answer says to a person, in either dialect. */
export function says(r: Answer): string {
  const b = r.body;
  if (b && typeof b === 'object') {
    const o = b as Record<string, unknown>;
    for (const k of ['detail', 'error', 'message', 'title']) if (typeof o[k] === 'string' && o[k]) return o[k] as string;
  }
  return r.text;
}
