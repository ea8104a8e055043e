import { Inject, Injectable, Logger } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { sha256Hex } from '../crypto/secrets';
import { toErrorResponse } from '../envelope/envelope';
import { DomainError } from '../errors/domain-error';
import { isApiPath } from '../http/api-path';
import { bearerToken } from '../http/bearer-token';

/**
 * API.md §4: one bucket per API key across every /v1 request (per client IP when no key is sent),
 * counted before authentication, so even a bad key is limited. Every counted response carries the
 * X-RateLimit-* headers, the 429 included.
 *
 * An Express middleware rather than a guard: guards only run for routes that exist, and an unknown
 * route, a malformed or oversized body must be counted too. It runs before the body is parsed, so a
 * caller over the limit costs no parsing.
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger('RateLimit');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ThrottlerStorage) private readonly storage: ThrottlerStorage,
  ) {}

  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    if (this.config.rateLimit.disabled || !isApiPath(request.path)) return next();
    this.count(request, response).then(next, (error: unknown) => {
      const { status, body, headers, unexpected } = toErrorResponse(error);
      if (unexpected !== undefined) {
        this.logger.error(unexpected instanceof Error ? (unexpected.stack ?? unexpected.message) : String(unexpected));
      }
      for (const [name, value] of Object.entries(headers ?? {})) response.setHeader(name, value);
      response.status(status).json(body);
    });
  };

  private async count(request: Request, response: Response): Promise<void> {
    const { max: limit, windowMs } = this.config.rateLimit;
    const token = bearerToken(request);
    // The bucket is named by a hash of the presented credential: the secret itself never sits in a counter store.
    const tracker = token !== null ? `key:${sha256Hex(token)}` : `ip:${request.ip ?? 'unknown'}`;
    const key = `${this.config.rateLimit.keyPrefix}:${tracker}`;
    const { totalHits, timeToExpire } = await this.storage.increment(key, windowMs, limit, windowMs, 'default');
    response.setHeader('X-RateLimit-Limit', limit);
    response.setHeader('X-RateLimit-Remaining', Math.max(0, limit - totalHits));
    response.setHeader('X-RateLimit-Reset', timeToExpire);
    if (totalHits > limit) {
      throw new DomainError('RATE_LIMITED', `Rate limit of ${limit} requests exceeded; retry in ${timeToExpire} s`, undefined, {
        'Retry-After': String(Math.max(1, timeToExpire)),
      });
    }
  }
}
