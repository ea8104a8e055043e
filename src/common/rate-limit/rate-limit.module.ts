import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerModule, ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CredentialLookupRepository } from './credential-lookup.repository';
import { MemoryWindowStorage, RedisWindowStorage } from './fixed-window.storage';
import { RateLimiter } from './rate-limit.middleware';

function createStorage(config: AppConfig): MemoryWindowStorage | RedisWindowStorage {
  if (config.redisUrl === null) return new MemoryWindowStorage();
  return new RedisWindowStorage(new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true }));
}

/**
 * Rate-limit counters: in memory by default, in Redis when REDIS_URL is set so that every instance
 * shares them. The same storage also counts login attempts (API.md §3). `RateLimiter` is mounted as
 * Express middleware by `configureApp`.
 */
@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        throttlers: [{ name: 'default', limit: config.rateLimit.max, ttl: config.rateLimit.windowMs }],
        storage: createStorage(config),
      }),
    }),
  ],
  providers: [RateLimiter, CredentialLookupRepository],
  exports: [ThrottlerModule, RateLimiter],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(ThrottlerStorage) private readonly storage: MemoryWindowStorage | RedisWindowStorage) {}

  async onApplicationShutdown(): Promise<void> {
    await this.storage.close();
  }
}
