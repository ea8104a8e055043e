import { conflict, DomainError, invalidState, notFound, validationError } from '../../common/errors/domain-error';

export const couponNotFound = () => notFound('Coupon');
export const couponCodeTaken = () => conflict('A coupon with this code already exists');
export const couponUnavailable = (reason: 'inactive' | 'expired' | 'used up') =>
  new DomainError('COUPON_UNAVAILABLE', `Coupon is ${reason}`, [{ field: 'coupon', message: `coupon is ${reason}`, reason }]);
export const expiredCouponToggle = () => invalidState('An expired coupon cannot be toggled; extend expiresAt first');
export const percentageOutOfRange = () =>
  validationError('A PERCENTAGE discount must be 1–100', [{ field: 'discount', message: 'must be 1–100 for PERCENTAGE' }]);
export const maxRedeemsBelowCount = (count: number) =>
  validationError(`maxRedeems cannot be below the ${count} redemptions already made`, [
    { field: 'maxRedeems', message: `must be -1 or at least ${count}` },
  ]);
export const expiresAtNotFuture = () =>
  validationError('expiresAt must be in the future', [{ field: 'expiresAt', message: 'must be in the future' }]);
