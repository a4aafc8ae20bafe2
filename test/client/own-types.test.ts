// The client's public types (src/core/client/types.ts) import nothing, so that the client stands
// alone; their unions of dialects and field types are written out again there. These checks tie
// them to the model's lists: a dialect or a field type added to one and not the other fails tsc
// (`npm test` type-checks this file) and the test.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CLIENT_DIALECTS } from '../../src/core/client/dialects.js';
import type { DialectName as ClientDialect, FieldType as ClientFieldType } from '../../src/core/client/types.js';
import { DIALECTS, type DialectName, type FieldType } from '../../src/core/model/model.js';

describe("the client's own unions", () => {
  it('name the dialects and field types of the model', () => {
    expectTypeOf<ClientDialect>().toEqualTypeOf<DialectName>();
    // A password field is always hidden (src/node/content/schema.ts): no answer shows one.
    expectTypeOf<ClientFieldType>().toEqualTypeOf<Exclude<FieldType, 'password'>>();
    expect(Object.keys(CLIENT_DIALECTS).sort()).toEqual([...DIALECTS].sort());
  });
});
