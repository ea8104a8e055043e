import { canonicalJson } from './idempotency.interceptor';

describe('canonicalJson', () => {
  it('sorts object keys', () => {
    expect(canonicalJson({ b: 1, a: 2, c: 3 })).toBe('{"a":2,"b":1,"c":3}');
  });

  it('is independent of key order', () => {
    expect(canonicalJson({ name: 'x', permissions: ['*'], mode: 'test' })).toBe(
      canonicalJson({ mode: 'test', permissions: ['*'], name: 'x' }),
    );
  });

  it('keeps array order', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson({ items: ['b', 'a'] })).not.toBe(canonicalJson({ items: ['a', 'b'] }));
  });

  it('sorts nested objects, also inside arrays', () => {
    expect(canonicalJson({ z: { y: 1, x: [{ b: 1, a: 2 }, 'k'] }, a: null })).toBe(
      '{"a":null,"z":{"x":[{"a":2,"b":1},"k"],"y":1}}',
    );
    expect(canonicalJson({ outer: { b: { d: 1, c: 2 }, a: true } })).toBe(
      canonicalJson({ outer: { a: true, b: { c: 2, d: 1 } } }),
    );
  });

  it('distinguishes values that differ', () => {
    expect(canonicalJson({ amount: 1 })).not.toBe(canonicalJson({ amount: '1' }));
    expect(canonicalJson({ amount: 1 })).not.toBe(canonicalJson({ amount: 10 }));
    expect(canonicalJson({ a: { b: 1 } })).not.toBe(canonicalJson({ a: { c: 1 } }));
    expect(canonicalJson({})).not.toBe(canonicalJson([]));
  });

  it('escapes strings and keys like JSON', () => {
    expect(canonicalJson({ 'k"ey': 'va"l\n' })).toBe('{"k\\"ey":"va\\"l\\n"}');
  });

  it('encodes scalars and empty values', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(42)).toBe('42');
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(false)).toBe('false');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
  });
});
