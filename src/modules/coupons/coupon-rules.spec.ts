import { couponStatus, discountFor } from './coupon-rules';

/** Coupon rules (API.md §8.3): derived EXPIRED status and the discount taken from a subtotal. */
describe('discountFor — PERCENTAGE, rounded half up to the centavo', () => {
  it.each([
    // [percent, subtotal, expected] — each computed by hand
    [10, 1000, 100], // 100.00 exactly
    [10, 1005, 101], // 100.5  → 101 (half rounds up)
    [10, 1004, 100], // 100.4  → 100
    [10, 1006, 101], // 100.6  → 101
    [15, 333, 50], //   49.95  → 50
    [33, 150, 50], //   49.5   → 50
    [33, 149, 49], //   49.17  → 49
    [1, 50, 1], //       0.5   → 1
    [1, 49, 0], //       0.49  → 0
    [12, 4990, 599], // 598.8  → 599
    [25, 4990, 1248], // 1247.5 → 1248
    [100, 999, 999], // the whole subtotal
  ])('%i%% of %i is %i', (percent, subtotal, expected) => {
    expect(discountFor({ discount_kind: 'PERCENTAGE', discount: percent }, subtotal)).toBe(expected);
  });
});

describe('discountFor — FIXED', () => {
  it('takes the fixed amount from a larger subtotal', () => {
    expect(discountFor({ discount_kind: 'FIXED', discount: 500 }, 1000)).toBe(500);
    expect(discountFor({ discount_kind: 'FIXED', discount: 1 }, 100)).toBe(1);
  });

  it('is capped at the subtotal', () => {
    expect(discountFor({ discount_kind: 'FIXED', discount: 500 }, 300)).toBe(300);
    expect(discountFor({ discount_kind: 'FIXED', discount: 300 }, 300)).toBe(300);
  });
});

describe('couponStatus', () => {
  const now = '2026-11-21T14:03:00.000Z';

  it('keeps the stored status while there is no expiry or it is still ahead', () => {
    expect(couponStatus({ status: 'ACTIVE', expires_at: null }, now)).toBe('ACTIVE');
    expect(couponStatus({ status: 'INACTIVE', expires_at: null }, now)).toBe('INACTIVE');
    expect(couponStatus({ status: 'ACTIVE', expires_at: '2026-11-21T14:03:00.001Z' }, now)).toBe('ACTIVE');
    expect(couponStatus({ status: 'INACTIVE', expires_at: '2027-01-01T00:00:00.000Z' }, now)).toBe('INACTIVE');
  });

  it('is EXPIRED at the very instant expires_at is reached', () => {
    expect(couponStatus({ status: 'ACTIVE', expires_at: now }, now)).toBe('EXPIRED');
  });

  it('is EXPIRED once expires_at has passed, whatever the stored status', () => {
    expect(couponStatus({ status: 'ACTIVE', expires_at: '2026-11-21T14:02:59.999Z' }, now)).toBe('EXPIRED');
    expect(couponStatus({ status: 'INACTIVE', expires_at: '2020-01-01T00:00:00.000Z' }, now)).toBe('EXPIRED');
  });
});
