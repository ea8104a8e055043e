import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { sha256Hex } from '../../common/crypto/secrets';
import { DomainError } from '../../common/errors/domain-error';

/**
 * Login attempts per client IP and per email (API.md §3: 10 per 15 minutes), counted before the
 * password is checked so a guessing run costs no scrypt time once it is over the limit. Counters share
 * the rate-limit storage, so with Redis they hold across instances.
 */
@Injectable()
export class LoginLimiter {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ThrottlerStorage) private readonly storage: ThrottlerStorage,
  ) {}

  async countAttempt(ip: string, email: string): Promise<void> {
    if (this.config.rateLimit.disabled) return;
    const { maxFailedAttempts: limit, windowMs } = this.config.login;
    const prefix = `${this.config.rateLimit.keyPrefix}:login`;
    const results = await Promise.all([
      this.storage.increment(`${prefix}:ip:${ip}`, windowMs, limit, windowMs, 'login'),
      this.storage.increment(`${prefix}:email:${sha256Hex(email)}`, windowMs, limit, windowMs, 'login'),
    ]);
    const blocked = results.filter((result) => result.totalHits > limit);
    if (blocked.length > 0) {
      const retryIn = Math.max(...blocked.map((result) => result.timeToExpire));
      throw new DomainError('RATE_LIMITED', `Too many login attempts; retry in ${retryIn} s`, undefined, {
        'Retry-After': String(retryIn),
      });
    }
  }
}
