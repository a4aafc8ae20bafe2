// OpenAPI 3.1 description of a snapshot. (First cut: paths only; the dist work fills in schemas.)
import type { ContentModel } from './model.js';

export function openapiJson(model: ContentModel, baseUrl: string): string {
  const paths: Record<string, unknown> = {};
  for (const p of model.projects) {
    paths[`/api/${p.id}`] = { get: { operationId: `getProject_${p.id}`, responses: { '200': { description: 'The project' } } } };
  }
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Content Query API', version: '1' },
    servers: [{ url: baseUrl || '/' }],
    paths,
  });
}
