import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { invalidState } from '../../common/errors/domain-error';
import type { Executor } from '../../database/database.service';
import type { ChargeMethod, ChargesTable } from '../../database/database.types';
import { calculateFee } from '../fees/fee-schedule';
import { canApply } from './charge-lifecycle';
import { ChargeExpiryService } from './charge-expiry.service';
import { chargeNotFound, ChargeTransitionsService } from './charge-transitions.service';
import { ChargesRepository } from './charges.repository';

/** Pays a charge by one method: the fee of API.md §7 is fixed at that moment and recorded with it. */
@Injectable()
export class ChargePaymentService {
  constructor(
    private readonly charges: ChargesRepository,
    private readonly transitions: ChargeTransitionsService,
    private readonly expiry: ChargeExpiryService,
  ) {}

  async pay(
    scope: Scope,
    chargeId: string,
    method: ChargeMethod,
    trx: Executor,
    installments = 1,
    card: { brand: string; last4: string } | null = null,
  ): Promise<ChargesTable> {
    const charge = await this.charges.findById(scope, chargeId, trx);
    if (!charge) throw chargeNotFound();
    if (this.expiry.isDue(charge)) throw invalidState('The charge has expired');
    if (!canApply('pay', charge.status)) throw invalidState(`A ${charge.status} charge cannot be paid`);
    const quote = calculateFee(charge.amount, method, installments);
    return this.transitions.apply(scope, chargeId, 'pay', trx, {
      method,
      installments,
      fee: quote.fee,
      net_amount: quote.netAmount,
      ...(card === null ? {} : { card_brand: card.brand, card_last4: card.last4 }),
    });
  }
}
