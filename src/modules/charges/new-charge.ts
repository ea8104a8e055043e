import type { Scope } from '../../common/auth/auth-context';
import type { ChargeKind, ChargesTable } from '../../database/database.types';

/** What every new charge must say; the rest starts empty and each kind fills in its own columns. */
export interface NewChargeBasics {
  id: string;
  kind: ChargeKind;
  amount: number;
  methods: string[];
  metadata: Record<string, string> | undefined;
  now: string;
}

/** A PENDING charge row with every optional column empty. */
export function newChargeRow(scope: Scope, basics: NewChargeBasics, columns: Partial<ChargesTable>): ChargesTable {
  return {
    id: basics.id,
    store_id: scope.storeId,
    mode: scope.mode,
    kind: basics.kind,
    status: 'PENDING',
    amount: basics.amount,
    subtotal: basics.amount,
    discount: 0,
    methods: JSON.stringify(basics.methods),
    method: null,
    installments: 1,
    fee: null,
    net_amount: null,
    items: null,
    customer_id: null,
    customer: null,
    coupon_id: null,
    coupon_code: null,
    coupon_reserved: 0,
    external_id: null,
    description: null,
    return_url: null,
    completion_url: null,
    payment_link_id: null,
    pix_br_code: null,
    pix_qr_png: null,
    boleto_digitable_line: null,
    boleto_barcode: null,
    boleto_due_date: null,
    card_brand: null,
    card_last4: null,
    failure_reason: null,
    refund_reason: null,
    metadata: JSON.stringify(basics.metadata ?? {}),
    expires_at: null,
    paid_at: null,
    refunded_at: null,
    cancelled_at: null,
    created_at: basics.now,
    updated_at: basics.now,
    ...columns,
  };
}
