import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { toErrorResponse } from './envelope';

/** Every error, from any layer, leaves as the envelope with its code's status; internals are only logged. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body, headers, unexpected } = toErrorResponse(exception);
    if (unexpected !== undefined) {
      this.logger.error(unexpected instanceof Error ? (unexpected.stack ?? unexpected.message) : String(unexpected));
    }
    if (response.headersSent) return;
    for (const [name, value] of Object.entries(headers ?? {})) response.setHeader(name, value);
    response.status(status).json(body);
  }
}
