import { Kysely } from 'kysely';

/**
 * Charges of every kind (checkout, transparent Pix/boleto/card; subscription invoices later) share one
 * table and one lifecycle; payment links are the reusable offers behind some checkouts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('charges')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('kind', 'varchar(12)', (c) => c.notNull())
    .addColumn('status', 'varchar(14)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('subtotal', 'bigint', (c) => c.notNull())
    .addColumn('discount', 'bigint', (c) => c.notNull())
    .addColumn('methods', 'text', (c) => c.notNull())
    .addColumn('method', 'varchar(8)')
    .addColumn('installments', 'integer', (c) => c.notNull())
    .addColumn('fee', 'bigint')
    .addColumn('net_amount', 'bigint')
    .addColumn('items', 'text')
    .addColumn('customer_id', 'varchar(40)')
    .addColumn('customer', 'text')
    .addColumn('coupon_id', 'varchar(40)')
    .addColumn('coupon_code', 'varchar(40)')
    .addColumn('coupon_reserved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('external_id', 'varchar(100)')
    .addColumn('description', 'varchar(1000)')
    .addColumn('return_url', 'varchar(2000)')
    .addColumn('completion_url', 'varchar(2000)')
    .addColumn('payment_link_id', 'varchar(40)')
    .addColumn('pix_br_code', 'text')
    .addColumn('pix_qr_png', 'text')
    .addColumn('boleto_digitable_line', 'varchar(47)')
    .addColumn('boleto_barcode', 'varchar(44)')
    .addColumn('boleto_due_date', 'varchar(10)')
    .addColumn('card_brand', 'varchar(12)')
    .addColumn('card_last4', 'varchar(4)')
    .addColumn('failure_reason', 'varchar(40)')
    .addColumn('refund_reason', 'varchar(500)')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)')
    .addColumn('paid_at', 'varchar(30)')
    .addColumn('refunded_at', 'varchar(30)')
    .addColumn('cancelled_at', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('charges_page_idx').on('charges').columns(['store_id', 'mode', 'kind', 'id']).execute();
  await db.schema
    .createIndex('charges_status_idx')
    .on('charges')
    .columns(['store_id', 'mode', 'kind', 'status', 'id'])
    .execute();
  await db.schema
    .createIndex('charges_external_idx')
    .on('charges')
    .columns(['store_id', 'mode', 'external_id'])
    .execute();
  await db.schema
    .createIndex('charges_customer_idx')
    .on('charges')
    .columns(['store_id', 'mode', 'customer_id', 'id'])
    .execute();
  await db.schema.createIndex('charges_link_idx').on('charges').columns(['payment_link_id', 'id']).execute();
  await db.schema.createIndex('charges_expiry_idx').on('charges').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('payment_links')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('store_id', 'varchar(40)', (c) => c.notNull().references('stores.id'))
    .addColumn('mode', 'varchar(4)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(8)', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('methods', 'text', (c) => c.notNull())
    .addColumn('coupon_code', 'varchar(40)')
    .addColumn('external_id', 'varchar(100)')
    .addColumn('completion_url', 'varchar(2000)')
    .addColumn('payments_count', 'integer', (c) => c.notNull())
    .addColumn('max_payments', 'integer')
    .addColumn('expires_at', 'varchar(30)')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_links_page_idx').on('payment_links').columns(['store_id', 'mode', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_links').execute();
  await db.schema.dropTable('charges').execute();
}
