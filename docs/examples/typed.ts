// `npx cqa types content --out src/cms-types.ts`, then:
import { createClient } from 'content-query-api/client';
import type { DemoProducts, Types } from './cms-types.js';

const cms = createClient<Types['demo']>({ baseUrl: 'https://cdn.example.com', project: 'demo', mode: 'static' });

export async function deals(): Promise<DemoProducts[]> {
  const { data } = await cms.entries('products', {
    where: { price: { gt: 10 }, tags: { in: ['sale'] } },
    sort: 'price:desc',
  });
  return data; // typed: DemoProducts[]
}

export async function mistakes(): Promise<void> {
  // @ts-expect-error: Products have no field 'prise'
  await cms.entries('products', { where: { prise: { gt: 10 } } });
  // @ts-expect-error: 'like' does not apply to a number
  await cms.entries('products', { where: { price: { like: '1%' } } });
}
