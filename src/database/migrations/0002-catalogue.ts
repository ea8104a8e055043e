import { Kysely, sql } from 'kysely';

/** Customers, products and coupons (issue: catalogue). Soft-deleted rows keep their data for the charges that reference them. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('customers')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)')
    .addColumn('cellphone', 'varchar(20)')
    .addColumn('tax_id', 'varchar(14)')
    .addColumn('zip_code', 'varchar(8)')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('customers_page_idx').on('customers').columns(['store_id', 'mode', 'id']).execute();
  await db.schema.createIndex('customers_email_idx').on('customers').columns(['store_id', 'mode', 'email', 'id']).execute();
  await db.schema
    .createIndex('customers_tax_id_uq')
    .on('customers')
    .columns(['store_id', 'mode', 'tax_id'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('external_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'varchar(1000)')
    .addColumn('image_url', 'varchar(2000)')
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('cycle', 'varchar(12)')
    .addColumn('trial_days', 'integer')
    .addColumn('status', 'varchar(8)', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('products_page_idx').on('products').columns(['store_id', 'mode', 'id']).execute();
  await db.schema
    .createIndex('products_external_id_uq')
    .on('products')
    .columns(['store_id', 'mode', 'external_id'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('coupons')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('code', 'varchar(40)', (c) => c.notNull())
    .addColumn('discount_kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('discount', 'bigint', (c) => c.notNull())
    .addColumn('max_redeems', 'integer', (c) => c.notNull())
    .addColumn('redeems_count', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(8)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)')
    .addColumn('notes', 'varchar(1000)')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('coupons_page_idx').on('coupons').columns(['store_id', 'mode', 'id']).execute();
  await db.schema
    .createIndex('coupons_code_uq')
    .on('coupons')
    .columns(['store_id', 'mode', 'code'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['coupons', 'products', 'customers']) await db.schema.dropTable(table).execute();
}
