import { Inject, Injectable, Logger } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { sha256Hex } from '../crypto/secrets';
import { toErrorResponse } from '../envelope/envelope';
import { DomainError } from '../errors/domain-error';
import { isApiPath } from '../http/api-path';
import { bearerToken } from '../http/bearer-token';
import { CredentialLookupRepository } from './credential-lookup.repository';

const LIVE_CACHE_MS = 1000;
const LIVE_CACHE_SIZE = 10_000;

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
    private readonly credentials: CredentialLookupRepository,
  ) {}

  private readonly liveCache = new Map<string, { live: boolean; until: number }>();

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

  /**
   * A live key or session counts in its own bucket, named by the hash of the credential (the secret never
   * sits in a counter store); anything else (no token, a bad or revoked one) counts in the client IP's
   * bucket, so inventing tokens never buys fresh buckets.
   */
  private async trackerOf(request: Request): Promise<string> {
    const token = bearerToken(request);
    if (token !== null && /^(sk_test_|sk_live_|sess_)/.test(token)) {
      const hash = sha256Hex(token);
      if (await this.isLive(hash, token.startsWith('sess_'))) return `key:${hash}`;
    }
    return `ip:${request.ip ?? 'unknown'}`;
  }

  /** A short-lived answer cache: which bucket counts may lag a revocation by a second; authentication never does. */
  private async isLive(hash: string, isSession: boolean): Promise<boolean> {
    const now = Date.now();
    const cached = this.liveCache.get(hash);
    if (cached !== undefined && cached.until > now) return cached.live;
    const live = await this.credentials.isActive(hash, isSession, new Date(now).toISOString());
    if (this.liveCache.size >= LIVE_CACHE_SIZE) this.liveCache.clear();
    this.liveCache.set(hash, { live, until: now + LIVE_CACHE_MS });
    return live;
  }

  private async count(request: Request, response: Response): Promise<void> {
    const { max: limit, windowMs } = this.config.rateLimit;
    const key = `${this.config.rateLimit.keyPrefix}:${await this.trackerOf(request)}`;
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
