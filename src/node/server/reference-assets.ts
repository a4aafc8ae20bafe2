// Swagger UI's files for the API reference page (src/core/http/explorer), read from the package:
// `npm run build:ts` copies them into lib/vendor/swagger-ui/ (scripts/build-browser.mjs), so an
// installed package needs no Swagger UI of its own; in a checkout running the sources (vitest),
// they come from the swagger-ui-dist devDependency. Read once, on the first visit of /reference.
// Node's modules are taken then too (process.getBuiltinModule), so importing this module
// evaluates no Node-only code (fetch-node.ts promises as much).
import type { ReferenceAssets } from '../../core/http/explorer/page.js';

let assets: ReferenceAssets | undefined;

export function referenceAssets(): ReferenceAssets {
  if (!assets) {
    const fs = process.getBuiltinModule('node:fs');
    const path = process.getBuiltinModule('node:path');
    const { fileURLToPath } = process.getBuiltinModule('node:url');
    // lib/node/server/ → lib/vendor/swagger-ui/
    let dir = fileURLToPath(new URL('../../vendor/swagger-ui/', import.meta.url));
    if (!fs.existsSync(path.join(dir, 'swagger-ui-bundle.js'))) {
      dir = path.dirname(
        process
          .getBuiltinModule('node:module')
          .createRequire(import.meta.url)
          .resolve('swagger-ui-dist/package.json'),
      );
    }
    assets = {
      script: fs.readFileSync(path.join(dir, 'swagger-ui-bundle.js'), 'utf8'),
      style: fs.readFileSync(path.join(dir, 'swagger-ui.css'), 'utf8'),
    };
  }
  return assets;
}
