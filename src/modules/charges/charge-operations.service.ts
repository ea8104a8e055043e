import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { DomainError } from '../../common/errors/domain-error';
import { assertSandbox } from '../../common/sandbox';
import { DatabaseService } from '../../database/database.service';
import type { ChargeKind, ChargeMethod, ChargesTable } from '../../database/database.types';
import { ChargeExpiryService } from './charge-expiry.service';
import { ChargePaymentService } from './charge-payment.service';
import { chargeNotFound, ChargeTransitionsService } from './charge-transitions.service';
import { ChargesRepository } from './charges.repository';

/** The actions every kind of charge offers (cancel, refund, simulations), each in its own transaction. */
@Injectable()
export class ChargeOperationsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly charges: ChargesRepository,
    private readonly transitions: ChargeTransitionsService,
    private readonly payments: ChargePaymentService,
    private readonly expiry: ChargeExpiryService,
  ) {}

  /** The charge as stored now (a due PENDING one expired first); other kinds' ids are 404. */
  async find(scope: Scope, id: string, kind: ChargeKind): Promise<ChargesTable> {
    const row = await this.charges.findById(scope, id, undefined, kind);
    if (!row) throw chargeNotFound();
    return this.expiry.refresh(scope, row);
  }

  async cancel(scope: Scope, id: string, kind: ChargeKind): Promise<ChargesTable> {
    await this.find(scope, id, kind);
    return this.database.transaction((trx) => this.transitions.apply(scope, id, 'cancel', trx));
  }

  /**
   * Refunds the whole amount. Refunding a REFUNDED charge returns it unchanged, also when a concurrent
   * refund won the race: only the winner's ledger debit exists.
   */
  async refund(scope: Scope, id: string, kind: ChargeKind, reason: string | null): Promise<ChargesTable> {
    const current = await this.find(scope, id, kind);
    if (current.status === 'REFUNDED') return current;
    try {
      return await this.database.transaction((trx) =>
        this.transitions.apply(scope, id, 'refund', trx, { refund_reason: reason }),
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'INVALID_STATE') {
        const now = await this.find(scope, id, kind);
        if (now.status === 'REFUNDED') return now;
      }
      throw error;
    }
  }

  async simulatePayment(scope: Scope, id: string, kind: ChargeKind, method: ChargeMethod): Promise<ChargesTable> {
    assertSandbox(scope);
    await this.find(scope, id, kind);
    return this.database.transaction((trx) => this.payments.pay(scope, id, method, trx));
  }

  async simulateExpiration(scope: Scope, id: string, kind: ChargeKind): Promise<ChargesTable> {
    assertSandbox(scope);
    await this.find(scope, id, kind);
    return this.database.transaction((trx) => this.transitions.apply(scope, id, 'expire', trx));
  }
}
