// The example files the docs show as "run by npm test as it is here" are shown as they are: a
// change to one without the other fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The file's text less its line saying which page shows it. */
const example = (file: string) => readFileSync(file, 'utf8').replace(/^\/\/ docs\/\S+ shows this file\.\n/m, '');

describe('example files shown in the docs', () => {
  it.each([
    ['docs/contract-tests.md', 'docs/examples/msw.test.mjs'],
    ['docs/library.md', 'docs/examples/fixtures.test.mjs'],
    ['docs/openapi.md', 'docs/examples/openapi-fetch.test.mjs'],
    ['docs/dialects.md', 'docs/examples/elmapi3-contract.test.mjs'],
  ])('%s shows %s whole', (page, file) => {
    expect(readFileSync(page, 'utf8')).toContain(`\`\`\`js\n${example(file)}\`\`\`\n`);
  });
});
