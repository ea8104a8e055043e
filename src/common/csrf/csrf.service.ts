import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { doubleCsrf, DoubleCsrfUtilities } from 'csrf-csrf';
import type { NextFunction, Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SystemStateRepository } from '../../database/system-state.repository';
import { isApiPath } from '../http/api-path';

export const CSRF_FIELD = '_csrf';

/**
 * CSRF protection of every HTML form (hosted pay page, dashboard): the double-submit cookie of
 * `csrf-csrf`, bound to the visitor's session cookie when there is one. The HMAC secret lives in the
 * database, so every instance accepts the others' tokens. A POST outside /v1 without a valid token is
 * refused with 403 before any handler runs, so it changes nothing.
 */
@Injectable()
export class CsrfService implements OnApplicationBootstrap {
  private secret = '';
  private readonly csrf: DoubleCsrfUtilities;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly systemState: SystemStateRepository,
  ) {
    this.csrf = doubleCsrf({
      getSecret: () => this.secret,
      getSessionIdentifier: (request: Request) => sessionCookie(request),
      cookieName: 'csrf',
      cookieOptions: { sameSite: 'lax', secure: config.publicBaseUrl.startsWith('https:'), httpOnly: true, path: '/' },
      getCsrfTokenFromRequest: (request: Request) => (request.body as Record<string, string> | undefined)?.[CSRF_FIELD],
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.secret = await this.systemState.getOrCreate('csrf_secret', () => randomBytes(32).toString('base64url'));
  }

  /** A token for a form rendered in this response (sets the paired cookie). */
  token(request: Request, response: Response): string {
    return this.csrf.generateCsrfToken(request, response);
  }

  /** Express middleware: refuses state-changing form posts without a valid token. */
  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'POST' || isApiPath(request.path)) return next();
    if (this.secret !== '' && this.csrf.validateRequest(request)) return next();
    response.status(403).render('error', {
      title: 'Form expired',
      status: 403,
      message: 'This form is missing its security token or it has expired. Go back, reload the page and try again.',
    });
  };
}

function sessionCookie(request: Request): string {
  const value = (request.cookies as Record<string, unknown> | undefined)?.sess;
  return typeof value === 'string' ? value : '';
}
