import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, Transaction } from 'kysely';
import { Pool, types as pgTypes } from 'pg';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { DatabaseSchema } from './database.types';
import { StaticMigrationProvider } from './migrations';

/** A plain connection or an open transaction: repositories accept either. */
export type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/**
 * Owns the one Kysely instance. SQLite (embedded default, WAL) and PostgreSQL run the same queries
 * and migrations. Kysely's SQLite driver serialises every connection use behind a mutex, so two
 * requests can never interleave inside one transaction.
 */
@Injectable()
export class DatabaseService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseService.name);
  readonly db: Kysely<DatabaseSchema>;
  readonly dialect: 'sqlite' | 'postgres';

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.dialect = config.database.kind;
    this.db = new Kysely<DatabaseSchema>({ dialect: createDialect(config, this.logger) });
  }

  /** Migrations run at start, before any other module touches the database. */
  async onModuleInit(): Promise<void> {
    await this.migrate();
  }

  async migrate(): Promise<void> {
    const migrator = new Migrator({ db: this.db, provider: new StaticMigrationProvider() });
    const { error, results } = await migrator.migrateToLatest();
    for (const result of results ?? []) {
      if (result.status === 'Success') this.logger.log(`migration ${result.migrationName} applied`);
    }
    if (error) throw error instanceof Error ? error : new Error(String(error));
  }

  /** Runs `work` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(work: (trx: Transaction<DatabaseSchema>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async ping(): Promise<boolean> {
    try {
      await sql`select 1`.execute(this.db);
      return true;
    } catch {
      return false;
    }
  }

  /** Last of all at shutdown: workers stop in onModuleDestroy and may still record what they finished. */
  async onApplicationShutdown(): Promise<void> {
    await this.db.destroy();
  }
}

function createDialect(config: AppConfig, logger: Logger) {
  if (config.database.kind === 'postgres') {
    const pool = new Pool({
      connectionString: config.database.url,
      max: 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          // Money columns are bigint; sums come back as numeric. Both fit a JS number here.
          if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
          return pgTypes.getTypeParser(oid, format);
        }) as typeof pgTypes.getTypeParser,
      },
    });
    // An idle client whose server session ends (restart, failover, terminated backend) is reported as a
    // pool 'error'; unheard, that event would crash the process. The pool has already dropped the client.
    pool.on('error', (error) => logger.warn(`idle database connection lost: ${error.message}`));
    return new PostgresDialect({ pool });
  }
  mkdirSync(dirname(config.database.file), { recursive: true });
  const file = config.database.file;
  return new SqliteDialect({
    database: async () => {
      const database = new SqliteDatabase(file);
      database.pragma('journal_mode = WAL');
      database.pragma('synchronous = NORMAL');
      database.pragma('foreign_keys = ON');
      database.pragma('busy_timeout = 5000');
      return withStatementCache(database);
    },
  });
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; compiling SQL is a large part of a small query's cost on SQLite.
 * The service runs a bounded set of query shapes, so prepared statements are kept by SQL text.
 */
function withStatementCache(database: SqliteDatabase.Database): SqliteDatabase.Database {
  const prepare = database.prepare.bind(database);
  const cache = new Map<string, SqliteDatabase.Statement>();
  database.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement === undefined) {
      statement = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof database.prepare;
  return database;
}

/** True when `error` is a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
