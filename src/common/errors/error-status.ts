import type { ErrorCode } from './domain-error';

/** The HTTP status of every error code: the one mapping, exhaustive by construction. */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION_ERROR':
    case 'AMOUNT_BELOW_MINIMUM':
      return 400;
    case 'UNAUTHENTICATED':
    case 'INVALID_CREDENTIALS':
      return 401;
    case 'CARD_DECLINED':
      return 402;
    case 'FORBIDDEN':
    case 'SANDBOX_ONLY':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'CONFLICT':
    case 'INVALID_STATE':
    case 'INSUFFICIENT_FUNDS':
    case 'COUPON_UNAVAILABLE':
    case 'IDEMPOTENCY_IN_PROGRESS':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'IDEMPOTENCY_KEY_REUSED':
      return 422;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL':
      return 500;
    default: {
      const unhandled: never = code;
      throw new Error(`No HTTP status for error code ${String(unhandled)}`);
    }
  }
}
