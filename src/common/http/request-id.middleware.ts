import type { NextFunction, Request, Response } from 'express';
import { newId } from '../ids';

const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9_\-.:]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

/** Echoes a well-formed incoming X-Request-Id, otherwise issues a new `req_…` id (API.md §1.1). */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  const incoming = request.header('x-request-id');
  request.id = incoming !== undefined && ACCEPTED_REQUEST_ID.test(incoming) ? incoming : newId('req');
  response.setHeader('X-Request-Id', request.id);
  next();
}
