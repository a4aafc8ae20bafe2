// Any static host + the static client: queries answered in the browser, no server.
import { createClient } from 'content-query-api/client';

export async function latestGermanPosts(baseUrl) {
  // baseUrl: where `dist/` is published, e.g. 'https://cdn.example.com' ('' = this site)
  const cms = createClient({ baseUrl, project: 'demo', mode: 'static' });
  const { data, meta } = await cms.entries('posts', {
    where: { locale: 'de' },
    sort: 'published_at:desc',
    limit: 3,
  });
  const travel = await cms.count('posts', { where: { tags: { in: ['travel', 'hiking'] } } });
  return { titles: data.map((post) => post.title), total: meta.total, travel };
}
