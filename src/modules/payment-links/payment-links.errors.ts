import { invalidState, notFound, validationError } from '../../common/errors/domain-error';

export const paymentLinkNotFound = () => notFound('Payment link');
export const paymentNotFound = () => notFound('Payment of a payment link');
export const linkNotAcceptingPayments = (why: string) => invalidState(`The payment link accepts no payment: ${why}`);
export const expiredLinkToggle = () => invalidState('An expired payment link cannot be toggled; extend expiresAt first');
export const maxPaymentsBelowCount = () =>
  validationError('maxPayments cannot be below the payments already made', [
    { field: 'maxPayments', message: 'must be at least paymentsCount' },
  ]);
export const expiresAtNotFuture = () =>
  validationError('expiresAt must be in the future', [{ field: 'expiresAt', message: 'must be in the future' }]);
