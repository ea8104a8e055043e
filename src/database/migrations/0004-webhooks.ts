import { Kysely } from 'kysely';

/**
 * Webhook endpoints and their deliveries. A delivery row is written in the same transaction as the
 * event it carries (an outbox), so no event is lost between commit and send.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'varchar(500)')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'varchar(200)')
    .addColumn('secret', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_scope_idx')
    .on('webhook_endpoints')
    .columns(['store_id', 'mode', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('endpoint_id', 'varchar(40)', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', 'varchar(40)', (c) => c.notNull().references('events.id'))
    .addColumn('event_type', 'varchar(60)', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('attempts', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'varchar(30)')
    .addColumn('locked_until', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_queue_idx').on('webhook_deliveries').columns(['status', 'id']).execute();
  await db.schema
    .createIndex('webhook_deliveries_lease_idx')
    .on('webhook_deliveries')
    .columns(['status', 'locked_until'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'status', 'id'])
    .execute();
  await db.schema.createIndex('events_type_idx').on('events').columns(['store_id', 'mode', 'type', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_type_idx').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
