import { parseMetadata } from '../../common/validation/metadata';
import type { CouponsTable } from '../../database/database.types';
import { couponStatus } from './coupon-rules';
import type { CouponView } from './dto/coupon.dto';

export function presentCoupon(row: CouponsTable, now: string): CouponView {
  return {
    id: row.id,
    code: row.code,
    discountKind: row.discount_kind,
    discount: row.discount,
    maxRedeems: row.max_redeems,
    redeemsCount: row.redeems_count,
    status: couponStatus(row, now),
    expiresAt: row.expires_at,
    notes: row.notes,
    metadata: parseMetadata(row.metadata),
    devMode: row.mode === 'test',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
