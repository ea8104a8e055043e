import { Module } from '@nestjs/common';
import { ChargesModule } from '../charges/charges.module';
import { CouponsModule } from '../coupons/coupons.module';
import { CustomersModule } from '../customers/customers.module';
import { DisputesModule } from '../disputes/disputes.module';
import { ProductsModule } from '../products/products.module';
import { CheckoutsController } from './checkouts.controller';
import { CheckoutsService } from './checkouts.service';

@Module({
  imports: [ChargesModule, ProductsModule, CustomersModule, CouponsModule, DisputesModule],
  controllers: [CheckoutsController],
  providers: [CheckoutsService],
  exports: [CheckoutsService],
})
export class CheckoutsModule {}
