import { json, urlencoded } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '../errors/domain-error';
import { toErrorResponse } from '../envelope/envelope';

/**
 * Body parsers whose failures (malformed JSON, over the size limit) answer in the envelope.
 * They run as plain Express middleware, before Nest's exception filters can see anything.
 */
export function bodyParsers(limitBytes: number): RequestHandler[] {
  return [
    guardParser(json({ limit: limitBytes, strict: true })),
    guardParser(urlencoded({ limit: limitBytes, extended: false })),
  ];
}

function guardParser(parser: RequestHandler): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    parser(request, response, (error?: unknown) => {
      if (error === undefined || error === null) return next();
      const { status, body } = toErrorResponse(asDomainError(error));
      response.status(status).json(body);
    });
  };
}

function asDomainError(error: unknown): DomainError {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') return new DomainError('PAYLOAD_TOO_LARGE', 'Request body is larger than 1 MiB');
  if (type === 'entity.parse.failed') return new DomainError('VALIDATION_ERROR', 'Malformed JSON body');
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new DomainError('VALIDATION_ERROR', 'Unsupported body encoding: send UTF-8 JSON');
  }
  return new DomainError('VALIDATION_ERROR', 'Unreadable request body');
}
