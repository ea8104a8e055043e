import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isApiPath } from '../http/api-path';
import { toErrorResponse } from './envelope';

/**
 * Every error, from any layer, leaves with its code's status; internals are only logged. The JSON API
 * answers with the envelope; a page answers with an HTML error page, and a page that needs a session
 * sends the browser to /login.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body, headers, unexpected } = toErrorResponse(exception);
    if (unexpected !== undefined) {
      this.logger.error(unexpected instanceof Error ? (unexpected.stack ?? unexpected.message) : String(unexpected));
    }
    if (response.headersSent) return;
    for (const [name, value] of Object.entries(headers ?? {})) response.setHeader(name, value);
    if (isApiPath(request.path) || request.path === '/health' || request.path === '/ready') {
      response.status(status).json(body);
      return;
    }
    if (body.error?.code === 'UNAUTHENTICATED') {
      response.redirect(302, '/login');
      return;
    }
    response.status(status).render('error', {
      title: status === 404 ? 'Page not found' : 'Something went wrong',
      status,
      message: status >= 500 ? 'An unexpected error happened. Try again in a moment.' : body.error?.message,
    });
  }
}
