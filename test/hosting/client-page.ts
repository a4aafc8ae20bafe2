// The page of test/hosting/client-nginx.slow.test.ts, bundled with esbuild and served from an origin
// other than the static tree's (`?api=<origin>`): the static client as a site on another origin
// uses it. Host problems come back as { status: 0, body: '<name>: <message>' }.
import { ClientError, createClient } from '../../src/core/client/index.js';

const api = new URLSearchParams(location.search).get('api') ?? '';
const cms = createClient({ baseUrl: api, project: 'demo', mode: 'static' });

async function run(requests: readonly [string, string][]): Promise<{ status: number; body: string }[]> {
  const out: { status: number; body: string }[] = [];
  for (const [path, query] of requests) {
    try {
      out.push({ status: 200, body: JSON.stringify(await cms.get(path, query)) });
    } catch (e) {
      if (e instanceof ClientError)
        out.push({ status: e.status, body: JSON.stringify({ code: e.code, detail: e.detail, param: e.param }) });
      else out.push({ status: 0, body: `${(e as Error).name}: ${(e as Error).message}` });
    }
  }
  return out;
}

Object.assign(window, { cqa: { run } });
document.title = 'ready';
