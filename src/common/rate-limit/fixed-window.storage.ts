import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type Redis from 'ioredis';

/**
 * Fixed-window counters behind @nestjs/throttler. The same semantics in memory and in Redis: the first
 * hit opens a window of `ttl` ms, every hit counts, and a caller over `limit` is blocked until the
 * window ends (`X-RateLimit-Reset` and `Retry-After` are both "seconds until the window resets").
 * Throttler's own memory storage keeps one timer per hit, which does not scale to a busy key.
 */
export interface WindowCount {
  hits: number;
  msUntilReset: number;
}

abstract class FixedWindowStorage implements ThrottlerStorage {
  protected abstract hit(key: string, windowMs: number): Promise<WindowCount>;

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const { hits, msUntilReset } = await this.hit(key, ttl);
    const seconds = Math.max(1, Math.ceil(msUntilReset / 1000));
    return { totalHits: hits, timeToExpire: seconds, isBlocked: hits > limit, timeToBlockExpire: seconds };
  }
}

export class MemoryWindowStorage extends FixedWindowStorage {
  private readonly windows = new Map<string, { hits: number; resetsAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    super();
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  protected hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetsAt <= now) {
      window = { hits: 0, resetsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.hits += 1;
    return Promise.resolve({ hits: window.hits, msUntilReset: window.resetsAt - now });
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, window] of this.windows) if (window.resetsAt <= now) this.windows.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

/** INCR and expiry in one script, so concurrent instances share one exact count per window. */
const HIT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}
`;

export class RedisWindowStorage extends FixedWindowStorage {
  constructor(private readonly redis: Redis) {
    super();
  }

  protected async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [hits, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, key, String(windowMs))) as [number, number];
    return { hits, msUntilReset: ttl };
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
