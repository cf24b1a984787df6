import { parseJsonQuery } from './json-query';

describe('parseJsonQuery (JSON query mode)', () => {
  it.each([
    ['mode2=%2215%22', { mode2: '15' }],
    ['mode2=15', { mode2: 15 }],
    ['page=0&friendsOnly=true', { page: 0, friendsOnly: true }],
    ['language=english', { language: 'english' }],
    ['status=%5B%22pending%22%5D', { status: ['pending'] }],
    ['status=pending&status=blocked', { status: ['pending', 'blocked'] }],
    ['status=%5B%22a%22%5D&status=b&status=c', { status: [['a'], 'b', 'c'] }],
    ['isUid', { isUid: '' }],
    ['isUid=', { isUid: '' }],
    ['a=%7B%22b%22%3A1%7D', { a: { b: 1 } }],
    ['name=hello+world', { name: 'hello world' }],
    ['x=nul&y=t&z=null', { x: 'nul', y: 't', z: null }],
    ['bad=%E0%A4%A', { bad: '%E0%A4%A' }],
    ['n=12abc&m=-&o=%5Bunclosed', { n: '12abc', m: '-', o: '[unclosed' }],
    ['', {}],
    ['&&a=1&', { a: 1 }],
  ])('%s', (query, expected) => {
    expect({ ...parseJsonQuery(query) }).toEqual(expected);
  });

  it('keeps a value nested deeper than the limit as the raw string', () => {
    const deep = `${'['.repeat(40)}${']'.repeat(40)}`;
    expect(parseJsonQuery(`a=${deep}`).a).toBe(deep);
    expect(parseJsonQuery(`a=${'['.repeat(5)}${']'.repeat(5)}`).a).toEqual([[[[[]]]]]);
  });

  it('gives an object without a prototype, so __proto__ and constructor are plain keys', () => {
    const query = parseJsonQuery('__proto__=1&constructor=2');
    expect(Object.getPrototypeOf(query)).toBeNull();
    expect(Object.keys(query)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });
});
