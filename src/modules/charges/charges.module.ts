import { Module } from '@nestjs/common';
import { CouponsModule } from '../coupons/coupons.module';
import { EventsModule } from '../events/events.module';
import { LedgerModule } from '../ledger/ledger.module';
import { ChargeExpiryService } from './charge-expiry.service';
import { ChargePresenter } from './charge.presenter';
import { ChargeTransitionsService } from './charge-transitions.service';
import { ChargesRepository } from './charges.repository';
import { ChargePaymentService } from './charge-payment.service';
import { ChargeOperationsService } from './charge-operations.service';

/** What every kind of charge shares: storage, the lifecycle, expiry, payment by method, presentation. */
@Module({
  imports: [LedgerModule, EventsModule, CouponsModule],
  providers: [ChargesRepository, ChargeTransitionsService, ChargeExpiryService, ChargePresenter, ChargePaymentService, ChargeOperationsService],
  exports: [
    ChargesRepository,
    ChargeTransitionsService,
    ChargeExpiryService,
    ChargePresenter,
    ChargePaymentService,
    ChargeOperationsService,
  ],
})
export class ChargesModule {}
