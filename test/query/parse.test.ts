import { describe, expect, it } from 'vitest';
import { parseQuery, type PNode } from '../../src/core/query/parse.js';

/** The parsed tree as plain data, for comparisons. */
function plain(node: PNode): unknown {
  if (node.kind === 'leaf') return node.value;
  return Object.fromEntries([...node.entries].map(([k, v]) => [k, plain(v)]));
}

const tree = (raw: string) => plain(parseQuery(raw));

describe('parseQuery: PHP bracket rules', () => {
  it('each [] appends a new element', () => {
    expect(tree('where[][a]=1&where[][b]=2')).toEqual({ where: { 0: { a: '1' }, 1: { b: '2' } } });
    expect(tree('where[or][][price]=10&where[or][][price]=21')).toEqual({ where: { or: { 0: { price: '10' }, 1: { price: '21' } } } });
    expect(tree('where[id][in][]=a&where[id][in][]=b')).toEqual({ where: { id: { in: { 0: 'a', 1: 'b' } } } });
  });

  it('numeric segments address elements; [] continues after the largest', () => {
    expect(tree('where[0][a]=1&where[0][b]=2&where[][c]=3')).toEqual({ where: { 0: { a: '1', b: '2' }, 1: { c: '3' } } });
    expect(tree('where[5][a]=1&where[][b]=2')).toEqual({ where: { 5: { a: '1' }, 6: { b: '2' } } });
  });

  it('decodes + and percent-encoding in keys and values', () => {
    expect(tree('where%5Btitle%5D=a+b%2Bc&sort=x')).toEqual({ where: { title: 'a b+c' }, sort: 'x' });
    expect(tree('first&count=')).toEqual({ first: '', count: '' });
  });

  it('builds no objects with a prototype', () => {
    const root = parseQuery('where[a]=1');
    expect(root.entries).toBeInstanceOf(Map);
  });
});
