import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { ThrottlerRequest } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { sha256Hex } from '../crypto/secrets';
import { DomainError } from '../errors/domain-error';
import { isApiPath } from '../http/api-path';
import { bearerToken } from '../http/bearer-token';

/**
 * API.md §4: one bucket per API key across every /v1 route (per client IP when no key is sent),
 * counted before authentication, so even a bad key is limited. Every counted response carries the
 * X-RateLimit-* headers, the 429 included, which @nestjs/throttler's own guard does not do.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  @Inject(APP_CONFIG) private readonly config: AppConfig;

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    return Promise.resolve(this.config.rateLimit.disabled || !isApiPath(request.path));
  }

  protected override getTracker(request: Request): Promise<string> {
    const token = bearerToken(request);
    // The bucket is named by a hash of the presented credential: the secret itself never sits in a counter store.
    return Promise.resolve(token !== null ? `key:${sha256Hex(token)}` : `ip:${request.ip ?? 'unknown'}`);
  }

  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return `${this.config.rateLimit.keyPrefix}:${tracker}`;
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl } = props;
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const key = this.generateKey(context, await this.getTracker(request));
    const { totalHits, timeToExpire } = await this.storageService.increment(key, ttl, limit, ttl, 'default');
    response.setHeader('X-RateLimit-Limit', limit);
    response.setHeader('X-RateLimit-Remaining', Math.max(0, limit - totalHits));
    response.setHeader('X-RateLimit-Reset', timeToExpire);
    if (totalHits > limit) {
      response.setHeader('Retry-After', Math.max(1, timeToExpire));
      throw new DomainError('RATE_LIMITED', `Rate limit of ${limit} requests exceeded; retry in ${timeToExpire} s`);
    }
    return true;
  }
}
