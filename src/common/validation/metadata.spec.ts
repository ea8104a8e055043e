import { metadataProblem, parseMetadata } from './metadata';

/** Metadata limits (API.md §1): flat object, ≤ 50 keys, keys ≤ 40 chars, string values ≤ 500 chars. */
const withKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`key${i}`, `value${i}`]));

describe('metadataProblem', () => {
  it('accepts an empty object and a small flat map', () => {
    expect(metadataProblem({})).toBeNull();
    expect(metadataProblem({ crmId: '42', channel: 'site' })).toBeNull();
  });

  it('accepts 50 keys and refuses 51', () => {
    expect(metadataProblem(withKeys(50))).toBeNull();
    expect(metadataProblem(withKeys(51))).toBe('metadata can hold at most 50 keys');
  });

  it('accepts a 40-character key and refuses 41', () => {
    expect(metadataProblem({ ['k'.repeat(40)]: 'v' })).toBeNull();
    expect(metadataProblem({ ['k'.repeat(41)]: 'v' })).toBe('metadata keys must be 1–40 characters');
  });

  it('refuses an empty key', () => {
    expect(metadataProblem({ '': 'v' })).toBe('metadata keys must be 1–40 characters');
  });

  it('accepts a 500-character value and refuses 501', () => {
    expect(metadataProblem({ note: 'x'.repeat(500) })).toBeNull();
    expect(metadataProblem({ note: 'x'.repeat(501) })).toBe('metadata.note can be at most 500 characters');
  });

  it.each([
    ['a number', { count: 3 }],
    ['a boolean', { paid: true }],
    ['null', { gone: null }],
    ['a nested object', { address: { city: 'Recife' } }],
    ['an array', { tags: ['a', 'b'] }],
  ])('refuses %s as a value', (_label, value) => {
    const key = Object.keys(value)[0];
    expect(metadataProblem(value)).toBe(`metadata.${key} must be a string`);
  });

  it.each([
    ['an array', ['a']],
    ['null', null],
    ['a string', 'text'],
    ['a number', 5],
    ['undefined', undefined],
  ])('refuses %s as the metadata itself', (_label, value) => {
    expect(metadataProblem(value)).toBe('metadata must be a flat object');
  });
});

describe('parseMetadata', () => {
  it('reads stored JSON and treats null or empty as {}', () => {
    expect(parseMetadata('{"a":"1"}')).toEqual({ a: '1' });
    expect(parseMetadata(null)).toEqual({});
    expect(parseMetadata('')).toEqual({});
  });
});
