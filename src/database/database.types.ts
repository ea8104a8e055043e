import type { Generated } from 'kysely';

/**
 * Row shapes of every table, as stored. Portable across SQLite and PostgreSQL:
 * timestamps are ISO-8601 UTC text (sortable as text), booleans are 0/1 integers,
 * JSON is text, money is a bigint of centavos (read back as a JS number).
 */
export type Mode = 'test' | 'live';

export interface MerchantsTable {
  id: string;
  name: string;
  email: string;
  password_hash: string | null;
  created_at: string;
}

export interface StoresTable {
  id: string;
  merchant_id: string;
  name: string;
  created_at: string;
}

export interface SessionsTable {
  id: string;
  merchant_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface ApiKeysTable {
  id: string;
  merchant_id: string;
  store_id: string;
  mode: Mode;
  name: string;
  permissions: string;
  key_hash: string;
  prefix: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface BalancesTable {
  store_id: string;
  mode: Mode;
  available: number;
  pending: number;
  blocked: number;
  updated_at: string;
}

export interface LedgerEntriesTable {
  id: string;
  store_id: string;
  mode: Mode;
  type: string;
  amount: number;
  bucket: 'available' | 'pending' | 'blocked';
  source_id: string | null;
  created_at: string;
}

export interface IdempotencyRecordsTable {
  merchant_id: string;
  mode: Mode;
  idempotency_key: string;
  fingerprint: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export interface EventsTable {
  id: string;
  store_id: string;
  mode: Mode;
  type: string;
  data: string;
  created_at: string;
}

export interface SystemStateTable {
  key: string;
  value: string;
}

export interface CustomersTable {
  id: string;
  store_id: string;
  mode: Mode;
  email: string;
  name: string | null;
  cellphone: string | null;
  tax_id: string | null;
  zip_code: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type ProductCycle = 'WEEKLY' | 'MONTHLY' | 'QUARTERLY' | 'SEMIANNUALLY' | 'ANNUALLY';

export interface ProductsTable {
  id: string;
  store_id: string;
  mode: Mode;
  external_id: string;
  name: string;
  description: string | null;
  image_url: string | null;
  price: number;
  cycle: ProductCycle | null;
  trial_days: number | null;
  status: 'ACTIVE' | 'INACTIVE';
  metadata: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface CouponsTable {
  id: string;
  store_id: string;
  mode: Mode;
  code: string;
  discount_kind: 'PERCENTAGE' | 'FIXED';
  discount: number;
  max_redeems: number;
  redeems_count: number;
  status: 'ACTIVE' | 'INACTIVE';
  expires_at: string | null;
  notes: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type ChargeKind = 'checkout' | 'transparent' | 'invoice';
export type ChargeStatus =
  | 'PENDING'
  | 'PAID'
  | 'REFUNDED'
  | 'EXPIRED'
  | 'CANCELLED'
  | 'FAILED'
  | 'UNDER_DISPUTE'
  | 'CHARGED_BACK';
export type ChargeMethod = 'PIX' | 'CARD' | 'BOLETO';

export interface ChargesTable {
  id: string;
  store_id: string;
  mode: Mode;
  kind: ChargeKind;
  status: ChargeStatus;
  amount: number;
  subtotal: number;
  discount: number;
  methods: string;
  method: ChargeMethod | null;
  installments: number;
  fee: number | null;
  net_amount: number | null;
  items: string | null;
  customer_id: string | null;
  customer: string | null;
  coupon_id: string | null;
  coupon_code: string | null;
  /** 1 while the checkout holds one of its coupon's redemptions (link checkouts take it when paid). */
  coupon_reserved: number;
  external_id: string | null;
  description: string | null;
  return_url: string | null;
  completion_url: string | null;
  payment_link_id: string | null;
  pix_br_code: string | null;
  pix_qr_png: string | null;
  boleto_digitable_line: string | null;
  boleto_barcode: string | null;
  boleto_due_date: string | null;
  card_brand: string | null;
  card_last4: string | null;
  failure_reason: string | null;
  refund_reason: string | null;
  metadata: string;
  expires_at: string | null;
  paid_at: string | null;
  refunded_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PaymentLinksTable {
  id: string;
  store_id: string;
  mode: Mode;
  name: string;
  status: 'ACTIVE' | 'INACTIVE';
  items: string;
  amount: number;
  methods: string;
  coupon_code: string | null;
  external_id: string | null;
  completion_url: string | null;
  payments_count: number;
  max_payments: number | null;
  expires_at: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointsTable {
  id: string;
  store_id: string;
  mode: Mode;
  url: string;
  events: string;
  description: string | null;
  enabled: number;
  disabled_reason: string | null;
  secret: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface WebhookDeliveriesTable {
  id: string;
  store_id: string;
  mode: Mode;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: string;
  attempt_count: number;
  next_attempt_at: string | null;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
}

export type DisputeReason = 'FRAUD' | 'NOT_RECEIVED' | 'DUPLICATE' | 'OTHER';
export type DisputeStatus = 'OPEN' | 'UNDER_REVIEW' | 'WON' | 'LOST';

export interface DisputesTable {
  id: string;
  store_id: string;
  mode: Mode;
  charge_id: string;
  amount: number;
  reason: DisputeReason;
  status: DisputeStatus;
  evidence: string | null;
  respond_by: string;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
}

export interface FlashReceiptsTable {
  nonce: string;
  used_at: string;
}

export interface DatabaseSchema {
  flash_receipts: FlashReceiptsTable;
  disputes: DisputesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  charges: ChargesTable;
  payment_links: PaymentLinksTable;
  customers: CustomersTable;
  products: ProductsTable;
  coupons: CouponsTable;
  merchants: MerchantsTable;
  stores: StoresTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  balances: BalancesTable;
  ledger_entries: LedgerEntriesTable;
  idempotency_records: IdempotencyRecordsTable;
  events: EventsTable;
  system_state: SystemStateTable;
}

export type { Generated };
