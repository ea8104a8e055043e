import { Module } from '@nestjs/common';
import { ChargesModule } from '../charges/charges.module';
import { DisputesModule } from '../disputes/disputes.module';
import { PaymentLinksModule } from '../payment-links/payment-links.module';
import { StoresModule } from '../stores/stores.module';
import { PayPageController } from './pay-page.controller';
import { PayPageService } from './pay-page.service';

@Module({
  imports: [ChargesModule, PaymentLinksModule, StoresModule, DisputesModule],
  controllers: [PayPageController],
  providers: [PayPageService],
})
export class PayPageModule {}
