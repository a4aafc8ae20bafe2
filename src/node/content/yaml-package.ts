// The `yaml` package, loaded when a file first needs it: most content takes the fast path
// (simple-yaml.ts), and loading the package costs ~50 ms of a cold start. It is CommonJS, so it can
// be required in the middle of a synchronous parse.
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');

let loaded: Yaml | undefined;

export function yamlPackage(): Yaml {
  return (loaded ??= createRequire(import.meta.url)('yaml') as Yaml);
}
