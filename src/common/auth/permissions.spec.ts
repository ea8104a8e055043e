import { isGranted, parsePermissions, Permission } from './permissions';

/** API.md §2.4, spelled out here rather than imported, so a change to the list fails this test. */
const RESOURCES = [
  'customers',
  'products',
  'checkouts',
  'payment-links',
  'transparents',
  'coupons',
  'subscriptions',
  'webhooks',
  'payouts',
  'disputes',
];

describe('parsePermissions', () => {
  it('accepts "*" alone', () => {
    expect(parsePermissions(['*'])).toEqual({ ok: true, grants: ['*'] });
  });

  it.each([[['*', 'customers:read']], [['customers:read', '*']], [['*', '*']]])('rejects "*" mixed: %j', (input) => {
    const result = parsePermissions(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(/\*/);
  });

  it('rejects an empty list', () => {
    const result = parsePermissions([]);
    expect(result).toEqual({ ok: false, problem: expect.stringMatching(/empty/) });
  });

  it.each([
    'invoices:read', // unknown resource
    'customers:delete', // unknown action
    'customers:*',
    'customers',
    'Customers:read',
    'customers:READ',
    ' customers:read',
    'customers:read ',
    'payment_links:read',
    ':read',
    '',
  ])('rejects %j', (entry) => {
    const result = parsePermissions([entry]);
    expect(result.ok).toBe(false);
    // Also when mixed with a valid permission: one bad entry spoils the list.
    expect(parsePermissions(['customers:read', entry]).ok).toBe(false);
  });

  it('names the unknown permission in the problem', () => {
    const result = parsePermissions(['products:read', 'invoices:write']);
    expect(result).toEqual({ ok: false, problem: expect.stringContaining('invoices:write') });
  });

  it.each([[[5]], [[null]], [[{ resource: 'customers' }]], [['customers:read', true]]])('rejects non-strings %j', (input) => {
    expect(parsePermissions(input).ok).toBe(false);
  });

  it.each(RESOURCES)('accepts read and write on %s', (resource) => {
    expect(parsePermissions([`${resource}:read`])).toEqual({ ok: true, grants: [`${resource}:read`] });
    expect(parsePermissions([`${resource}:write`])).toEqual({ ok: true, grants: [`${resource}:write`] });
    expect(parsePermissions([`${resource}:write`, `${resource}:read`])).toEqual({
      ok: true,
      grants: [`${resource}:read`, `${resource}:write`],
    });
  });

  it('collapses duplicates', () => {
    expect(parsePermissions(['customers:read', 'customers:read', 'customers:read'])).toEqual({
      ok: true,
      grants: ['customers:read'],
    });
  });

  it('normalises order: resources in §2.4 order, read before write', () => {
    expect(
      parsePermissions(['disputes:read', 'products:write', 'customers:write', 'products:read', 'payment-links:read', 'products:write']),
    ).toEqual({
      ok: true,
      grants: ['customers:write', 'products:read', 'products:write', 'payment-links:read', 'disputes:read'],
    });
  });

  it('gives the same grants for the same set in any order', () => {
    const a = parsePermissions(['webhooks:write', 'coupons:read', 'payouts:read']);
    const b = parsePermissions(['payouts:read', 'webhooks:write', 'coupons:read']);
    expect(a).toEqual({ ok: true, grants: ['coupons:read', 'webhooks:write', 'payouts:read'] });
    expect(b).toEqual(a);
  });

  it('accepts the full list of 20 permissions', () => {
    const all = RESOURCES.flatMap((resource) => [`${resource}:write`, `${resource}:read`]).reverse();
    const result = parsePermissions(all);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.grants).toHaveLength(20);
      expect(result.grants.slice(0, 4)).toEqual(['customers:read', 'customers:write', 'products:read', 'products:write']);
      expect(result.grants.slice(-2)).toEqual(['disputes:read', 'disputes:write']);
    }
  });
});

describe('isGranted', () => {
  it('grants a listed permission', () => {
    expect(isGranted(['customers:read'], 'customers:read')).toBe(true);
    expect(isGranted(['products:read', 'customers:write'], 'customers:write')).toBe(true);
  });

  it('write does not imply read', () => {
    expect(isGranted(['customers:write'], 'customers:read')).toBe(false);
  });

  it('read does not imply write', () => {
    expect(isGranted(['customers:read'], 'customers:write')).toBe(false);
  });

  it('a permission on one resource grants nothing on another', () => {
    expect(isGranted(['customers:read', 'customers:write'], 'products:read')).toBe(false);
    expect(isGranted(['payment-links:write'], 'payouts:write')).toBe(false);
  });

  it('no grants grant nothing', () => {
    expect(isGranted([], 'customers:read')).toBe(false);
  });

  it.each(RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`]))('"*" grants %s', (permission) => {
    expect(isGranted(['*'], permission as Permission)).toBe(true);
  });
});
