import { parseMetadata } from '../../common/validation/metadata';
import type { ChargeMethod, PaymentLinksTable } from '../../database/database.types';
import type { ChargeItem } from '../charges/charge.presenter';
import type { PaymentLinkStatus, PaymentLinkView } from './dto/payment-link.dto';

/** EXPIRED is derived from `expiresAt`; the stored status is ACTIVE or INACTIVE. */
export function paymentLinkStatus(row: Pick<PaymentLinksTable, 'status' | 'expires_at'>, now: string): PaymentLinkStatus {
  return row.expires_at !== null && row.expires_at <= now ? 'EXPIRED' : row.status;
}

export function presentPaymentLink(row: PaymentLinksTable, now: string, publicBaseUrl: string): PaymentLinkView {
  return {
    id: row.id,
    url: `${publicBaseUrl}/pay/${row.id}`,
    name: row.name,
    status: paymentLinkStatus(row, now),
    items: JSON.parse(row.items) as ChargeItem[],
    amount: row.amount,
    methods: JSON.parse(row.methods) as ChargeMethod[],
    paymentsCount: row.payments_count,
    maxPayments: row.max_payments,
    coupon: row.coupon_code,
    externalId: row.external_id,
    completionUrl: row.completion_url,
    expiresAt: row.expires_at,
    metadata: parseMetadata(row.metadata),
    devMode: row.mode === 'test',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
