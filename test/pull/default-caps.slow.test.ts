// The default caps of `cqa pull` end a list whose pages always bring new ids (limits.test.ts checks
// each cap with small values): 10,000 pages of two entries, a slow suite (docs/development.md#tests).
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/node/pull/limits.js';
import { closeServer, cqaApi, entry, json, options, refusal, serve } from './limits-server.js';

afterEach(closeServer);

it('the default caps end such a list too', async () => {
  await serve(cqaApi([], (offset) => json({ data: [entry(`e${offset}`), entry(`e${offset + 1}`)], meta: { total: 1e12 } })));
  // pageSize 2: the default 200,000 items would take 100,000 pages, so the 10,000 pages come first.
  expect(await refusal(options())).toMatch(new RegExp(`more than ${DEFAULT_LIMITS.maxPages} pages`));
}, 120_000);
