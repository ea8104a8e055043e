import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { isApiPath } from '../http/api-path';
import { successEnvelope } from './envelope';
import { PreparedResponse } from './raw-response';

/** Wraps every successful /v1 result in `{data, success: true, error: null}`. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof PreparedResponse) {
          http.getResponse<Response>().status(result.status);
          return result.body;
        }
        return isApiPath(request.path) ? successEnvelope(result ?? null) : result;
      }),
    );
  }
}
