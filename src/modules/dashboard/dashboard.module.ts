import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuthModule } from '../auth/auth.module';
import { ChargesModule } from '../charges/charges.module';
import { LedgerModule } from '../ledger/ledger.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AccountPagesController } from './account-pages.controller';
import { DashboardController } from './dashboard.controller';
import { DashboardService } from './dashboard.service';
import { HomeController } from './home.controller';

@Module({
  imports: [AuthModule, ApiKeysModule, ChargesModule, LedgerModule, WebhooksModule],
  controllers: [HomeController, AccountPagesController, DashboardController],
  providers: [DashboardService],
})
export class DashboardModule {}
