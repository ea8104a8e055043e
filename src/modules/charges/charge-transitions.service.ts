import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { invalidState, notFound } from '../../common/errors/domain-error';
import type { Executor } from '../../database/database.service';
import type { ChargesTable } from '../../database/database.types';
import { CouponsService } from '../coupons/coupons.service';
import { EventsService } from '../events/events.service';
import { LedgerService } from '../ledger/ledger.service';
import { ChargeAction, CHARGE_TRANSITIONS } from './charge-lifecycle';
import { ChargePresenter } from './charge.presenter';
import { ChargesRepository } from './charges.repository';

export const chargeNotFound = () => notFound('Charge');

/**
 * Work another family does inside a charge's transition, on the same transaction (a payment link
 * counting a payment, say). Throwing rolls the whole transition back.
 */
export type TransitionHook = (scope: Scope, charge: ChargesTable, action: ChargeAction, trx: Executor) => Promise<void>;

/**
 * The one function that moves a charge through its lifecycle: the status change, its ledger rows, the
 * coupon given back (expire, cancel) and the event, all on the caller's transaction, so they commit
 * together or not at all.
 */
@Injectable()
export class ChargeTransitionsService {
  private readonly hooks: TransitionHook[] = [];

  constructor(
    private readonly charges: ChargesRepository,
    private readonly ledger: LedgerService,
    private readonly events: EventsService,
    private readonly coupons: CouponsService,
    private readonly presenter: ChargePresenter,
    private readonly clock: Clock,
  ) {}

  async apply(
    scope: Scope,
    chargeId: string,
    action: ChargeAction,
    trx: Executor,
    changes: Partial<ChargesTable> = {},
  ): Promise<ChargesTable> {
    const transition = CHARGE_TRANSITIONS[action];
    const current = await this.charges.findById(scope, chargeId, trx);
    if (!current) throw chargeNotFound();
    if (!transition.from.includes(current.status)) {
      throw invalidState(`A ${current.status} charge cannot ${action === 'pay' ? 'be paid' : `be ${pastTense(action)}`}`);
    }
    const now = this.clock.nowIso();
    const patch: Partial<ChargesTable> = { ...changes, status: transition.to, updated_at: now };
    if (transition.stamps) patch[transition.stamps] = now;
    if (!(await this.charges.updateIfStatus(scope, chargeId, transition.from, patch, trx))) {
      throw invalidState(`The charge changed state while it was being ${pastTense(action)}`);
    }
    const updated: ChargesTable = { ...current, ...patch };
    const postings = transition.ledger(updated).filter((posting) => posting.amount !== 0);
    await this.ledger.post(scope, postings, trx);
    if ((action === 'expire' || action === 'cancel') && updated.coupon_id !== null && updated.coupon_reserved === 1) {
      await this.coupons.release(scope, updated.coupon_id, trx);
    }
    if (transition.event !== null) await this.recordEvent(scope, updated, transition.event, trx);
    for (const hook of this.hooks) await hook(scope, updated, action, trx);
    return updated;
  }

  onTransition(hook: TransitionHook): void {
    this.hooks.push(hook);
  }

  /** Records `<kind>.<event>` with the charge as `get` shows it now. */
  async recordEvent(scope: Scope, charge: ChargesTable, event: string, trx: Executor): Promise<void> {
    const prefix = charge.kind === 'invoice' ? 'invoice' : charge.kind;
    await this.events.record(scope, `${prefix}.${event}`, this.presenter.present(charge), trx);
  }
}

function pastTense(action: ChargeAction): string {
  const words: Record<ChargeAction, string> = {
    pay: 'paid',
    expire: 'expired',
    cancel: 'cancelled',
    fail: 'failed',
    refund: 'refunded',
    dispute: 'disputed',
    win: 'won',
    lose: 'lost',
  };
  return words[action];
}
