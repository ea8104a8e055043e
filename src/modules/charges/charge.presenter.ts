import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { parseMetadata } from '../../common/validation/metadata';
import type { ChargeMethod, ChargesTable } from '../../database/database.types';

export interface ChargeItem {
  productId: string;
  name: string;
  quantity: number;
  unitPrice: number;
}

export interface ChargeCustomer {
  name: string | null;
  email: string | null;
  taxId: string | null;
  cellphone: string | null;
}

/** Charges as `get` shows them, per kind (API.md §9.1, §9.3). Events carry exactly this. */
@Injectable()
export class ChargePresenter {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  present(row: ChargesTable): Record<string, unknown> {
    return row.kind === 'transparent' ? this.transparent(row) : this.checkout(row);
  }

  payUrl(id: string): string {
    return `${this.config.publicBaseUrl}/pay/${id}`;
  }

  checkout(row: ChargesTable) {
    return {
      id: row.id,
      url: this.payUrl(row.id),
      status: row.status,
      items: parseJson<ChargeItem[]>(row.items, []),
      subtotal: row.subtotal,
      discount: row.discount,
      amount: row.amount,
      methods: parseJson<ChargeMethod[]>(row.methods, []),
      method: row.method,
      installments: row.installments,
      fee: row.fee,
      netAmount: row.net_amount,
      customerId: row.customer_id,
      coupon: row.coupon_code,
      externalId: row.external_id,
      returnUrl: row.return_url,
      completionUrl: row.completion_url,
      paymentLinkId: row.payment_link_id,
      expiresAt: row.expires_at,
      paidAt: row.paid_at,
      refundedAt: row.refunded_at,
      cancelledAt: row.cancelled_at,
      metadata: parseMetadata(row.metadata),
      devMode: row.mode === 'test',
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  transparent(row: ChargesTable) {
    return {
      id: row.id,
      method: row.method,
      status: row.status,
      amount: row.amount,
      description: row.description,
      brCode: row.pix_br_code,
      brCodeBase64: row.pix_qr_png,
      digitableLine: row.boleto_digitable_line,
      barCode: row.boleto_barcode,
      dueDate: row.boleto_due_date,
      card: row.card_last4 === null ? null : { brand: row.card_brand, last4: row.card_last4 },
      installments: row.installments,
      fee: row.fee,
      netAmount: row.net_amount,
      customer: parseJson<ChargeCustomer | null>(row.customer, null),
      externalId: row.external_id,
      failureReason: row.failure_reason,
      expiresAt: row.expires_at,
      paidAt: row.paid_at,
      refundedAt: row.refunded_at,
      cancelledAt: row.cancelled_at,
      metadata: parseMetadata(row.metadata),
      devMode: row.mode === 'test',
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }
}

function parseJson<T>(text: string | null, fallback: T): T {
  return text === null ? fallback : (JSON.parse(text) as T);
}
