import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The one typed configuration object of the service. Nothing else in the code reads `process.env`:
 * `loadConfig` parses and validates the environment once at start (API.md §15) and the result is
 * injected wherever it is needed under the `APP_CONFIG` token.
 */
export interface AppConfig {
  port: number;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  redisUrl: string | null;
  publicBaseUrl: string;
  defaultApiKey: string | null;
  rateLimit: {
    disabled: boolean;
    max: number;
    windowMs: number;
    /** Namespaces counters in a shared store (Redis). Tests give every app its own. */
    keyPrefix: string;
  };
  login: { maxFailedAttempts: number; windowMs: number };
  sessionTtlHours: number;
  webhookRetryScheduleSeconds: number[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** log2 of scrypt's cost parameter N. 17 (128 MiB) in production; tests lower it to stay fast. */
  passwordHashCostLog2: number;
  bodyLimitBytes: number;
  trustProxy: boolean;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

type Env = Record<string, string | undefined>;

/** Parses the environment; throws ConfigError listing every bad value at once. */
export function loadConfig(env: Env): AppConfig {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };
  const flag = (name: string): boolean => {
    const raw = text(name);
    if (raw === undefined) return false;
    if (['1', 'true'].includes(raw.toLowerCase())) return true;
    if (['0', 'false'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be 1 or 0 (got "${raw}")`);
    return false;
  };

  const port = integer('PORT', 3000, 0, 65535);
  const dataDir = resolve(text('DATA_DIR') ?? './data');

  let database: AppConfig['database'] = { kind: 'sqlite', file: resolve(dataDir, 'payments.db') };
  const databaseUrl = text('DATABASE_URL');
  if (databaseUrl !== undefined) {
    if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
      database = { kind: 'postgres', url: databaseUrl };
    } else if (databaseUrl.startsWith('sqlite:') && databaseUrl.length > 'sqlite:'.length) {
      database = { kind: 'sqlite', file: resolve(databaseUrl.slice('sqlite:'.length)) };
    } else {
      problems.push('DATABASE_URL must be "sqlite:<path>" or "postgres://user@host:port/db"');
    }
  }

  const redisUrl = text('REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    // The value is not echoed: a Redis URL may carry a password (API.md §15).
    problems.push('REDIS_URL must start with redis:// or rediss://');
  }

  let publicBaseUrl = text('PUBLIC_BASE_URL') ?? `http://localhost:${port}`;
  try {
    const parsed = new URL(publicBaseUrl);
    if (!['http:', 'https:'].includes(parsed.protocol)) throw new Error('protocol');
    publicBaseUrl = publicBaseUrl.replace(/\/+$/, '');
  } catch {
    problems.push(`PUBLIC_BASE_URL must be an http(s) URL (got "${publicBaseUrl}")`);
  }

  const defaultApiKey = text('DEFAULT_API_KEY') ?? null;
  if (defaultApiKey !== null && !/^sk_test_[A-Za-z0-9]{16,128}$/.test(defaultApiKey)) {
    problems.push('DEFAULT_API_KEY must be "sk_test_" followed by 16–128 letters or digits');
  }

  const webhookRetryScheduleSeconds = parseRetrySchedule(text('WEBHOOK_RETRY_SCHEDULE'), problems);

  const logLevel = (text('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const config: AppConfig = {
    port,
    dataDir,
    database,
    redisUrl,
    publicBaseUrl,
    defaultApiKey,
    rateLimit: {
      disabled: flag('RATE_LIMIT_DISABLED'),
      max: integer('RATE_LIMIT_MAX', 120, 1, 1_000_000),
      windowMs: integer('RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
      keyPrefix: 'rl',
    },
    login: { maxFailedAttempts: 10, windowMs: 15 * 60_000 },
    sessionTtlHours: integer('SESSION_TTL_HOURS', 168, 1, 8760),
    webhookRetryScheduleSeconds,
    logLevel: logLevel as AppConfig['logLevel'],
    passwordHashCostLog2: integer('PASSWORD_HASH_COST_LOG2', 17, 10, 20),
    bodyLimitBytes: 1024 * 1024,
    trustProxy: flag('TRUST_PROXY'),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * DATA_DIR must be a directory the service can write (the SQLite file, the default key file). Checked
 * before anything starts, so a bad value is a configuration message rather than a stack trace later.
 */
export function assertDataDirWritable(config: AppConfig): void {
  try {
    mkdirSync(config.dataDir, { recursive: true });
    accessSync(config.dataDir, constants.W_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'not writable';
    throw new ConfigError([`DATA_DIR must be a writable directory (${config.dataDir}: ${reason})`]);
  }
}

function parseRetrySchedule(raw: string | undefined, problems: string[]): number[] {
  if (raw === undefined) return DEFAULT_RETRY_SCHEDULE;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length === 0 || parts.length > 20 || !parts.every((part) => /^\d+(\.\d+)?$/.test(part))) {
    problems.push(
      `WEBHOOK_RETRY_SCHEDULE must be 1–20 comma-separated delays in seconds, e.g. "5,300,1800" (got "${raw}")`,
    );
    return DEFAULT_RETRY_SCHEDULE;
  }
  return parts.map(Number);
}
