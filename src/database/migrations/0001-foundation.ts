import { Kysely } from 'kysely';

/**
 * Foundation tables (issue: platform foundation). Written with the schema builder only, so the
 * same migration runs on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('stores')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'varchar(40)', (c) => c.notNull().references('merchants.id'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stores_merchant_idx').on('stores').columns(['merchant_id', 'id']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'varchar(40)', (c) => c.notNull().references('merchants.id'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(30)')
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'varchar(40)', (c) => c.notNull().references('merchants.id'))
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('prefix', 'varchar(20)', (c) => c.notNull())
    .addColumn('last4', 'varchar(4)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(30)')
    .addColumn('expires_at', 'varchar(30)')
    .addColumn('revoked_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('api_keys_store_mode_idx').on('api_keys').columns(['store_id', 'mode', 'id']).execute();

  await db.schema
    .createTable('balances')
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('available', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('pending', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('blocked', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('balances_pk', ['store_id', 'mode'])
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('bucket', 'varchar(10)', (c) => c.notNull())
    .addColumn('source_id', 'varchar(60)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_entries_store_mode_idx')
    .on('ledger_entries')
    .columns(['store_id', 'mode', 'id'])
    .execute();

  await db.schema
    .createTable('idempotency_records')
    .addColumn('merchant_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['merchant_id', 'mode', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_records_expiry_idx').on('idempotency_records').column('expires_at').execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('type', 'varchar(60)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_store_mode_idx').on('events').columns(['store_id', 'mode', 'id']).execute();

  await db.schema
    .createTable('system_state')
    .addColumn('key', 'varchar(60)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'system_state',
    'events',
    'idempotency_records',
    'ledger_entries',
    'balances',
    'api_keys',
    'sessions',
    'stores',
    'merchants',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
