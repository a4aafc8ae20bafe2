// The page of test/client/browser.slow.test.ts, bundled with esbuild and served by `cqa preview` from
// the same origin as the static tree: the static client, as a site would use it.
import { ClientError, createClient } from '../../src/core/client/index.js';

const cms = createClient({ baseUrl: location.origin, project: 'demo', mode: 'static' });

/** Each request's answer as JSON text (what the server sends), or its problem. */
async function run(requests: readonly [string, string][]): Promise<{ status: number; body: string }[]> {
  const out: { status: number; body: string }[] = [];
  for (const [path, query] of requests) {
    try {
      out.push({ status: 200, body: JSON.stringify(await cms.get(path, query)) });
    } catch (e) {
      if (!(e instanceof ClientError)) throw e;
      out.push({ status: e.status, body: JSON.stringify({ code: e.code, detail: e.detail, param: e.param }) });
    }
  }
  return out;
}

/** The typed methods, as a page calls them. */
async function methods(): Promise<unknown> {
  const latest = await cms.entries('posts', { where: { locale: 'de' }, sort: 'published_at:desc', limit: 3 });
  const count = await cms.count('products', { where: { price: { gt: 20 } } });
  const first = await cms.first('posts', { whereRelation: { author: { role: 'editor' } }, fields: ['title'] });
  return { latest, count, first };
}

Object.assign(window, { cqa: { run, methods } });
document.title = 'ready';
