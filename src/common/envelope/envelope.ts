import { HttpException } from '@nestjs/common';
import { DomainError, ErrorCode, ErrorDetail } from '../errors/domain-error';
import { httpStatusOf } from '../errors/error-status';

/** The response envelope of every /v1 answer (API.md §1.1). */
export interface Envelope<T = unknown> {
  data: T | null;
  success: boolean;
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] } | null;
}

export const successEnvelope = <T>(data: T): Envelope<T> => ({ data, success: true, error: null });

export interface ErrorResponse {
  status: number;
  body: Envelope<null>;
  headers?: Record<string, string>;
  /** Set for errors the service did not expect: they are logged, never shown. */
  unexpected?: unknown;
}

/** Turns anything thrown while handling a request into its status and envelope. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof DomainError) {
    return { ...respond(error.code, error.message, error.details), headers: error.headers };
  }
  if (error instanceof HttpException) {
    return fromHttpException(error);
  }
  return { ...respond('INTERNAL', 'Internal server error'), unexpected: error };
}

function respond(code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorResponse {
  const error = details && details.length > 0 ? { code, message, details } : { code, message };
  return { status: httpStatusOf(code), body: { data: null, success: false, error } };
}

/** Framework exceptions (router 404, body parser) mapped onto the contract's codes. */
function fromHttpException(exception: HttpException): ErrorResponse {
  const status = exception.getStatus();
  switch (status) {
    case 404:
      return respond('NOT_FOUND', 'Route not found');
    case 413:
      return respond('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 429:
      return respond('RATE_LIMITED', 'Too many requests');
    case 401:
      return respond('UNAUTHENTICATED', 'Missing or invalid credentials');
    case 403:
      return respond('FORBIDDEN', 'Forbidden');
    default:
      if (status >= 400 && status < 500) return respond('VALIDATION_ERROR', 'Invalid request');
      return { ...respond('INTERNAL', 'Internal server error'), unexpected: exception };
  }
}
