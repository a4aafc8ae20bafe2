import { describe, expect, it } from 'vitest';
import { ownValue } from '../../src/core/model/model.js';
import { valueRecord } from '../../src/core/model/value-record.js';

describe('valueRecord: the object an entry keeps its values in', () => {
  it('reaches no Object.prototype: a key named like one of its members is only ever an own value', () => {
    const values = valueRecord<unknown>();
    expect('toString' in values).toBe(false);
    expect(ownValue(values, 'constructor')).toBeUndefined();
    const key = '__proto__'; // as a file's key would come
    values[key] = { polluted: true };
    expect(Object.hasOwn(values, '__proto__')).toBe(true);
    expect((values as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(values))).toEqual(JSON.parse('{"__proto__":{"polluted":true}}'));
  });

  it('shares a prototype nobody can change', () => {
    const proto = Object.getPrototypeOf(valueRecord()) as object;
    expect(Object.getPrototypeOf(proto)).toBeNull();
    expect(Object.isFrozen(proto)).toBe(true);
    expect(() => Object.defineProperty(proto, 'x', { value: 1 })).toThrow(TypeError);
    expect(Object.getPrototypeOf(valueRecord())).toBe(proto);
  });
});
