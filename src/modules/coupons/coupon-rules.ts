import type { CouponsTable } from '../../database/database.types';
import { percentOf } from '../fees/fee-schedule';
import type { CouponStatus } from './dto/coupon.dto';

/** EXPIRED is derived from `expiresAt`; the stored status is ACTIVE or INACTIVE. */
export function couponStatus(row: Pick<CouponsTable, 'status' | 'expires_at'>, now: string): CouponStatus {
  return row.expires_at !== null && row.expires_at <= now ? 'EXPIRED' : row.status;
}

/**
 * The discount a coupon takes from `subtotal`: a percentage rounded half up to the centavo, or a fixed
 * amount; never more than the subtotal.
 */
export function discountFor(coupon: Pick<CouponsTable, 'discount_kind' | 'discount'>, subtotal: number): number {
  const discount = coupon.discount_kind === 'PERCENTAGE' ? percentOf(subtotal, coupon.discount * 100) : coupon.discount;
  return Math.min(discount, subtotal);
}
