// Temp folders the test helpers write, removed after each test file by test/setup.ts.
import { rmSync } from 'node:fs';

const roots = new Set<string>();

export function removeAfterFile(root: string): void {
  roots.add(root);
}

export function removeTempRoots(): void {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots.clear();
}
