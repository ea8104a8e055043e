import { Module } from '@nestjs/common';
import { ChargesModule } from '../charges/charges.module';
import { CheckoutsModule } from '../checkouts/checkouts.module';
import { CouponsModule } from '../coupons/coupons.module';
import { EventsModule } from '../events/events.module';
import { ProductsModule } from '../products/products.module';
import { PaymentLinksController } from './payment-links.controller';
import { PaymentLinksRepository } from './payment-links.repository';
import { PaymentLinksService } from './payment-links.service';

@Module({
  imports: [ChargesModule, CheckoutsModule, ProductsModule, CouponsModule, EventsModule],
  controllers: [PaymentLinksController],
  providers: [PaymentLinksService, PaymentLinksRepository],
  exports: [PaymentLinksService, PaymentLinksRepository],
})
export class PaymentLinksModule {}
