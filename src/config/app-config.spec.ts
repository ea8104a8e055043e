import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

/** API.md §15: every variable optional, invalid values stop the start with a message naming the variable. */
describe('loadConfig', () => {
  const problemsOf = (env: Record<string, string>): ConfigError => {
    let caught: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    return caught as ConfigError;
  };

  describe('defaults', () => {
    const config = loadConfig({});

    it('listens on port 3000', () => {
      expect(config.port).toBe(3000);
    });

    it('uses ./data and the SQLite file payments.db in it', () => {
      expect(config.dataDir).toBe(join(process.cwd(), 'data'));
      expect(config.database).toEqual({ kind: 'sqlite', file: join(process.cwd(), 'data', 'payments.db') });
    });

    it('puts the SQLite file under DATA_DIR when only DATA_DIR is set', () => {
      const custom = loadConfig({ DATA_DIR: '/srv/payments-data' });
      expect(custom.dataDir).toBe('/srv/payments-data');
      expect(custom.database).toEqual({ kind: 'sqlite', file: '/srv/payments-data/payments.db' });
    });

    it('rate limits 120 requests per 60 000 ms, enabled', () => {
      expect(config.rateLimit).toMatchObject({ disabled: false, max: 120, windowMs: 60_000 });
    });

    it('keeps sessions 168 hours', () => {
      expect(config.sessionTtlHours).toBe(168);
    });

    it('retries webhooks after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
      expect(config.webhookRetryScheduleSeconds).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    });

    it('derives the public base URL from the port', () => {
      expect(config.publicBaseUrl).toBe('http://localhost:3000');
      expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
    });

    it('has no Redis and no fixed default key, logs at info', () => {
      expect(config.redisUrl).toBeNull();
      expect(config.defaultApiKey).toBeNull();
      expect(config.logLevel).toBe('info');
    });
  });

  describe('valid values', () => {
    it('reads PORT', () => {
      expect(loadConfig({ PORT: '8443' }).port).toBe(8443);
    });

    it('DATABASE_URL sqlite:<path> names another SQLite file', () => {
      expect(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/pay/other.db' }).database).toEqual({
        kind: 'sqlite',
        file: '/var/lib/pay/other.db',
      });
      expect(loadConfig({ DATABASE_URL: 'sqlite:relative/dir/x.db' }).database).toEqual({
        kind: 'sqlite',
        file: join(process.cwd(), 'relative', 'dir', 'x.db'),
      });
    });

    it('DATABASE_URL postgres://… switches to PostgreSQL', () => {
      expect(loadConfig({ DATABASE_URL: 'postgres://app:secret@db.internal:5432/payments' }).database).toEqual({
        kind: 'postgres',
        url: 'postgres://app:secret@db.internal:5432/payments',
      });
      expect(loadConfig({ DATABASE_URL: 'postgresql://postgres@127.0.0.1/test' }).database).toEqual({
        kind: 'postgres',
        url: 'postgresql://postgres@127.0.0.1/test',
      });
    });

    it('reads REDIS_URL', () => {
      expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379');
      expect(loadConfig({ REDIS_URL: 'rediss://cache.example.com:6380' }).redisUrl).toBe('rediss://cache.example.com:6380');
    });

    it('reads PUBLIC_BASE_URL without its trailing slash', () => {
      expect(loadConfig({ PUBLIC_BASE_URL: 'https://pay.example.com/' }).publicBaseUrl).toBe('https://pay.example.com');
      expect(loadConfig({ PUBLIC_BASE_URL: 'http://10.0.0.5:8080' }).publicBaseUrl).toBe('http://10.0.0.5:8080');
    });

    it('reads DEFAULT_API_KEY', () => {
      const key = 'sk_test_0123456789abcdefABCDEF';
      expect(loadConfig({ DEFAULT_API_KEY: key }).defaultApiKey).toBe(key);
    });

    it('reads the rate limit variables', () => {
      expect(loadConfig({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '2000' }).rateLimit).toMatchObject({
        disabled: false,
        max: 5,
        windowMs: 2000,
      });
      expect(loadConfig({ RATE_LIMIT_DISABLED: '1' }).rateLimit.disabled).toBe(true);
      expect(loadConfig({ RATE_LIMIT_DISABLED: '0' }).rateLimit.disabled).toBe(false);
    });

    it('reads SESSION_TTL_HOURS, WEBHOOK_RETRY_SCHEDULE and LOG_LEVEL', () => {
      const config = loadConfig({ SESSION_TTL_HOURS: '2', WEBHOOK_RETRY_SCHEDULE: '1, 10,60', LOG_LEVEL: 'debug' });
      expect(config.sessionTtlHours).toBe(2);
      expect(config.webhookRetryScheduleSeconds).toEqual([1, 10, 60]);
      expect(config.logLevel).toBe('debug');
    });
  });

  describe('invalid values', () => {
    it.each([
      ['PORT', 'abc'],
      ['PORT', '-1'],
      ['PORT', '65536'],
      ['PORT', '80.5'],
      ['PORT', '3e3'],
      ['DATABASE_URL', 'mysql://root@db/payments'],
      ['DATABASE_URL', 'sqlite:'],
      ['DATABASE_URL', '/var/data/payments.db'],
      ['DATABASE_URL', 'postgres:/db'],
      ['REDIS_URL', 'localhost:6379'],
      ['REDIS_URL', 'http://redis:6379'],
      ['PUBLIC_BASE_URL', 'not a url'],
      ['PUBLIC_BASE_URL', 'ftp://files.example.com'],
      ['PUBLIC_BASE_URL', 'localhost:3000'],
      ['DEFAULT_API_KEY', 'sk_live_0123456789abcdefABCDEF'],
      ['DEFAULT_API_KEY', '0123456789abcdefABCDEF'],
      ['DEFAULT_API_KEY', 'sk_test_'],
      ['RATE_LIMIT_MAX', '0'],
      ['RATE_LIMIT_MAX', 'abc'],
      ['RATE_LIMIT_MAX', '-5'],
      ['RATE_LIMIT_MAX', '1.5'],
      ['RATE_LIMIT_WINDOW_MS', 'abc'],
      ['RATE_LIMIT_WINDOW_MS', '0'],
      ['RATE_LIMIT_WINDOW_MS', '60s'],
      ['RATE_LIMIT_DISABLED', 'yes'],
      ['RATE_LIMIT_DISABLED', '2'],
      ['SESSION_TTL_HOURS', '0'],
      ['SESSION_TTL_HOURS', 'abc'],
      ['SESSION_TTL_HOURS', '1.5'],
      ['WEBHOOK_RETRY_SCHEDULE', 'abc'],
      ['WEBHOOK_RETRY_SCHEDULE', '5,,300'],
      ['WEBHOOK_RETRY_SCHEDULE', '5;300'],
      ['WEBHOOK_RETRY_SCHEDULE', '-5,10'],
      ['WEBHOOK_RETRY_SCHEDULE', ','],
      ['LOG_LEVEL', 'verbose'],
      ['LOG_LEVEL', 'loud'],
    ])('%s=%j throws a ConfigError naming %s', (name, value) => {
      const error = problemsOf({ [name]: value });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toContain(name);
      expect(error.message).toContain(name);
    });

    it('reports several bad values together', () => {
      const error = problemsOf({ PORT: 'abc', LOG_LEVEL: 'loud', REDIS_URL: 'nope', SESSION_TTL_HOURS: '0' });
      expect(error.problems).toHaveLength(4);
      for (const name of ['PORT', 'LOG_LEVEL', 'REDIS_URL', 'SESSION_TTL_HOURS']) {
        expect(error.problems.some((problem) => problem.includes(name))).toBe(true);
        expect(error.message).toContain(name);
      }
    });

    it('reports bad values even when others are valid', () => {
      const error = problemsOf({ PORT: '8080', DATABASE_URL: 'sqlite:/tmp/x.db', RATE_LIMIT_MAX: 'many' });
      expect(error.problems).toEqual([expect.stringContaining('RATE_LIMIT_MAX')]);
    });

    it('never repeats a secret in the message (API.md §15)', () => {
      const badKey = problemsOf({ DEFAULT_API_KEY: 'sk_live_TopSecretValue0123456789' });
      expect(badKey.message).not.toContain('TopSecretValue');
      const badDatabase = problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db/payments' });
      expect(badDatabase.message).not.toContain('hunter2');
      const badRedis = problemsOf({ REDIS_URL: 'http://:hunter2@redis:6379' });
      expect(badRedis.message).toContain('REDIS_URL');
      expect(badRedis.message).not.toContain('hunter2');
    });
  });
});
