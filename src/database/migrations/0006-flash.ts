import { Kysely } from 'kysely';

/** One-time flash messages already shown (their cookie must not show a secret twice). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('flash_receipts')
    .addColumn('nonce', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('used_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('flash_receipts_used_idx').on('flash_receipts').column('used_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('flash_receipts').execute();
}
