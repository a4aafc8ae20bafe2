// Temp folders the tests write, removed after each test file by test/setup.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const roots = new Set<string>();

export function removeAfterFile(root: string): void {
  roots.add(root);
}

/** A new folder under the system's temp folder, removed after the test file. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  roots.add(dir);
  return dir;
}

export function removeTempRoots(): void {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots.clear();
}
