import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { configureApp } from '../../src/configure-app';
import { DatabaseService } from '../../src/database/database.service';

/** A database of its own for one test app (or several apps sharing it, as instances would). */
export interface TestDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

export interface TestApp {
  app: NestExpressApplication;
  url: string;
  config: AppConfig;
  database: DatabaseService;
  defaultKey: string;
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

export const onPostgres = () => process.env.E2E_DATABASE === 'postgres';

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pay-test-'));
  if (!onPostgres()) {
    return {
      url: `sqlite:${join(dataDir, 'payments.db')}`,
      dataDir,
      drop: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })),
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('E2E on PostgreSQL needs TEST_DATABASE_URL');
  const name = `pay_test_${randomBytes(6).toString('hex')}`;
  await withPg(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    drop: async () => {
      await withPg(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function withPg<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestAppOptions {
  /** Share a database between apps (several instances, or a restart). Not dropped by close(). */
  database?: TestDatabase;
  /** Environment variables on top of the test defaults (rate limit off, fast password hashing, silent logs). */
  env?: Record<string, string | undefined>;
}

/** Boots the real AppModule through configureApp on a real HTTP port. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownsDatabase = options.database === undefined;
  const database = options.database ?? (await createTestDatabase());
  const defaultKey = `sk_test_${randomBytes(24).toString('hex')}`;
  const env: Record<string, string | undefined> = {
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.url,
    DEFAULT_API_KEY: defaultKey,
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_COST_LOG2: '10',
    RATE_LIMIT_DISABLED: '1',
    PUBLIC_BASE_URL: 'http://localhost:3000',
    ...(process.env.E2E_RATE_LIMIT_STORE === 'redis' ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  config.rateLimit.keyPrefix = `rl-test-${randomBytes(6).toString('hex')}`;

  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
  configureApp(app, config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  return {
    app,
    url,
    config,
    database: app.get(DatabaseService),
    defaultKey: options.env?.DEFAULT_API_KEY ?? defaultKey,
    http: () => request(url),
    close: async () => {
      await app.close();
      if (ownsDatabase) await database.drop();
    },
  };
}
