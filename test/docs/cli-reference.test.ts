// docs/cli.md shows `cqa <command> --help` of every command, made from the commands' specs by
// scripts/cli-docs.mjs: an option added to a command and not to the page fails here.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('docs/cli.md holds the current --help of every command (node scripts/cli-docs.mjs --write)', async () => {
  const { cliReference } = (await import('../../scripts/cli-docs.mjs' as string)) as { cliReference: () => Promise<string> };
  expect(readFileSync('docs/cli.md', 'utf8')).toContain(await cliReference());
});
