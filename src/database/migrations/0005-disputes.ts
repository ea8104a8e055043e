import { Kysely } from 'kysely';

/** Disputes (chargebacks) opened against paid charges. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('disputes')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('charge_id', 'varchar(40)', (c) => c.notNull().references('charges.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'varchar(14)', (c) => c.notNull())
    .addColumn('status', 'varchar(14)', (c) => c.notNull())
    .addColumn('evidence', 'text')
    .addColumn('respond_by', 'varchar(30)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('resolved_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('disputes_page_idx').on('disputes').columns(['store_id', 'mode', 'id']).execute();
  await db.schema.createIndex('disputes_charge_idx').on('disputes').columns(['store_id', 'mode', 'charge_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('disputes').execute();
}
