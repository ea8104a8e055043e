import type { ChargeStatus, ChargesTable } from '../../database/database.types';
import type { LedgerPosting } from '../ledger/ledger.service';

/**
 * The one lifecycle every charge follows (API.md §9), as data:
 *
 *   PENDING ──pay──▶ PAID ──refund──▶ REFUNDED
 *      ├─expire─▶ EXPIRED     └─dispute─▶ UNDER_DISPUTE ──win──▶ PAID
 *      ├─cancel─▶ CANCELLED                        └──lose─▶ CHARGED_BACK
 *      └─fail───▶ FAILED (card declined)
 *
 * Each action names the states it leaves from, the state it reaches, the event suffix it records
 * (`<kind>.<event>`, or none when another resource records its own event) and the ledger postings it makes.
 */
export type ChargeAction = 'pay' | 'expire' | 'cancel' | 'fail' | 'refund' | 'dispute' | 'win' | 'lose';

export interface ChargeTransition {
  from: readonly ChargeStatus[];
  to: ChargeStatus;
  event: string | null;
  ledger: (charge: ChargesTable) => LedgerPosting[];
  /** Timestamp column stamped with the transition time. */
  stamps?: 'paid_at' | 'refunded_at' | 'cancelled_at';
}

const none = () => [];

export const CHARGE_TRANSITIONS: Record<ChargeAction, ChargeTransition> = {
  pay: {
    from: ['PENDING'],
    to: 'PAID',
    event: 'paid',
    stamps: 'paid_at',
    ledger: (charge) => [{ type: 'payment', bucket: 'available', amount: charge.net_amount ?? 0, sourceId: charge.id }],
  },
  expire: { from: ['PENDING'], to: 'EXPIRED', event: 'expired', ledger: none },
  cancel: { from: ['PENDING'], to: 'CANCELLED', event: 'cancelled', stamps: 'cancelled_at', ledger: none },
  fail: { from: ['PENDING'], to: 'FAILED', event: 'failed', ledger: none },
  refund: {
    from: ['PAID'],
    to: 'REFUNDED',
    event: 'refunded',
    stamps: 'refunded_at',
    // The whole amount goes back to the buyer; the fee is not returned to the merchant.
    ledger: (charge) => [
      { type: 'refund', bucket: 'available', amount: -charge.amount, sourceId: charge.id, requireFunds: true },
    ],
  },
  dispute: {
    from: ['PAID'],
    to: 'UNDER_DISPUTE',
    event: null,
    // The disputed amount is held: available may go negative (API.md §11).
    ledger: (charge) => [
      { type: 'dispute_hold', bucket: 'available', amount: -charge.amount, sourceId: charge.id },
      { type: 'dispute_hold', bucket: 'blocked', amount: charge.amount, sourceId: charge.id },
    ],
  },
  win: {
    from: ['UNDER_DISPUTE'],
    to: 'PAID',
    event: null,
    ledger: (charge) => [
      { type: 'dispute_release', bucket: 'blocked', amount: -charge.amount, sourceId: charge.id },
      { type: 'dispute_release', bucket: 'available', amount: charge.amount, sourceId: charge.id },
    ],
  },
  lose: {
    from: ['UNDER_DISPUTE'],
    to: 'CHARGED_BACK',
    event: null,
    ledger: (charge) => [{ type: 'chargeback', bucket: 'blocked', amount: -charge.amount, sourceId: charge.id }],
  },
};

export function canApply(action: ChargeAction, status: ChargeStatus): boolean {
  return CHARGE_TRANSITIONS[action].from.includes(status);
}
