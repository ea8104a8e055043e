/**
 * Every error the service can answer with, by stable code (API.md §1.1). Services throw DomainError;
 * they never throw HttpException. The HTTP status of each code lives in one place: `error-status.ts`.
 */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'AMOUNT_BELOW_MINIMUM'
  | 'UNAUTHENTICATED'
  | 'INVALID_CREDENTIALS'
  | 'CARD_DECLINED'
  | 'FORBIDDEN'
  | 'SANDBOX_ONLY'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'INVALID_STATE'
  | 'INSUFFICIENT_FUNDS'
  | 'COUPON_UNAVAILABLE'
  | 'IDEMPOTENCY_IN_PROGRESS'
  | 'PAYLOAD_TOO_LARGE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RATE_LIMITED'
  | 'INTERNAL';

export interface ErrorDetail {
  field?: string;
  message: string;
  [extra: string]: unknown;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers that belong to this error (e.g. Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const validationError = (message: string, details?: ErrorDetail[]) =>
  new DomainError('VALIDATION_ERROR', message, details);
export const notFound = (what: string) => new DomainError('NOT_FOUND', `${what} not found`);
export const unauthenticated = (message = 'Missing or invalid credentials') =>
  new DomainError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
export const conflict = (message: string) => new DomainError('CONFLICT', message);
export const invalidState = (message: string) => new DomainError('INVALID_STATE', message);
