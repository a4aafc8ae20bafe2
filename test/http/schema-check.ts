// Checks an answer against the schema an OpenAPI document gives for it (elmapi.test.ts,
// openapi-clients.test.ts).

/** A small JSON Schema check (the keywords our OpenAPI documents use): the list of what does not conform. */
export function violations(value: unknown, schema: any, doc: any, at = '$'): string[] {
  if (schema.$ref)
    return violations(
      value,
      schema.$ref
        .split('/')
        .slice(1)
        .reduce((o: any, k: string) => o[k], doc),
      doc,
      at,
    );
  if (schema.anyOf) {
    const options = schema.anyOf as unknown[];
    return options.some((o) => violations(value, o, doc, at).length === 0) ? [] : [`${at}: matches none of ${options.length} schemas`];
  }
  if (schema.oneOf) {
    const matching = (schema.oneOf as unknown[]).filter((o) => violations(value, o, doc, at).length === 0).length;
    return matching === 1 ? [] : [`${at}: matches ${matching} of the oneOf schemas, not exactly one`];
  }
  if ('const' in schema && value !== schema.const) return [`${at}: not ${schema.const}`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: not one of ${schema.enum}`];
  const type = Array.isArray(value) ? 'array' : value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value;
  if (schema.type && !(schema.type === type || (schema.type === 'number' && type === 'integer')))
    return [`${at}: ${type}, not ${schema.type}`];
  if (schema.pattern && !new RegExp(schema.pattern).test(value as string)) return [`${at}: does not match ${schema.pattern}`];
  const out: string[] = [];
  if (type === 'array' && schema.items)
    (value as unknown[]).forEach((v, i) => {
      out.push(...violations(v, schema.items, doc, `${at}[${i}]`));
    });
  if (type === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k of schema.required ?? []) if (!(k in obj)) out.push(`${at}.${k}: missing`);
    for (const [k, v] of Object.entries(obj)) {
      if (schema.properties?.[k]) out.push(...violations(v, schema.properties[k], doc, `${at}.${k}`));
      else if (schema.properties) out.push(`${at}.${k}: not in the schema`);
    }
  }
  return out;
}
