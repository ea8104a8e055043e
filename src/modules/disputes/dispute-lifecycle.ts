import type { DisputeStatus } from '../../database/database.types';
import type { ChargeAction } from '../charges/charge-lifecycle';

/**
 * A dispute's lifecycle (API.md §11), as data:
 *
 *   OPEN ──submit-evidence──▶ UNDER_REVIEW
 *     │                           │
 *     ├──accept / lost──▶ LOST ◀──┤ lost
 *     └──won─────────────▶ WON ◀──┘ won
 *
 * Each action names the states it leaves from, where it goes, the event it records and what happens
 * to the disputed charge (its own lifecycle moves the held money).
 */
export type DisputeAction = 'submitEvidence' | 'accept' | 'win' | 'lose';

export interface DisputeTransition {
  from: readonly DisputeStatus[];
  to: DisputeStatus;
  event: 'dispute.updated' | 'dispute.won' | 'dispute.lost';
  charge: ChargeAction | null;
}

export const DISPUTE_TRANSITIONS: Record<DisputeAction, DisputeTransition> = {
  submitEvidence: { from: ['OPEN'], to: 'UNDER_REVIEW', event: 'dispute.updated', charge: null },
  accept: { from: ['OPEN', 'UNDER_REVIEW'], to: 'LOST', event: 'dispute.lost', charge: 'lose' },
  win: { from: ['OPEN', 'UNDER_REVIEW'], to: 'WON', event: 'dispute.won', charge: 'win' },
  lose: { from: ['OPEN', 'UNDER_REVIEW'], to: 'LOST', event: 'dispute.lost', charge: 'lose' },
};
