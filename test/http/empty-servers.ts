// cqa serve and cqa preview with nearly nothing to serve, for the tests of how they treat
// connections (slow headers, request bodies): an empty public project and a bare build.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSnapshot } from '../../src/node/build-snapshot.js';
import { startPreview, type PreviewServer } from '../../src/node/server/preview.js';
import { startServer, type RunningServer } from '../../src/node/server/start.js';

export interface EmptyServers {
  readonly served: RunningServer;
  readonly preview: PreviewServer;
  close(): Promise<void>;
}

export async function startEmptyServers(): Promise<EmptyServers> {
  const dist = mkdtempSync(join(tmpdir(), 'cqa-empty-servers-'));
  const served = await startServer({ snapshot: await buildSnapshot({ content: { 'p/project.yaml': 'id: p\npublic: true\n' } }), port: 0 });
  writeFileSync(join(dist, 'manifest.json'), '{"name":"content-query-api","snapshot":"0"}\n');
  const preview = await startPreview({ dir: dist, port: 0 });
  return {
    served,
    preview,
    async close() {
      await served.close();
      await preview.close();
      rmSync(dist, { recursive: true, force: true });
    },
  };
}
