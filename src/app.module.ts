import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { CsrfModule } from './common/csrf/csrf.module';
import { ViewsModule } from './common/views/views.module';
import { AllExceptionsFilter } from './common/envelope/all-exceptions.filter';
import { EnvelopeInterceptor } from './common/envelope/envelope.interceptor';
import { IdempotencyInterceptor } from './common/idempotency/idempotency.interceptor';
import { IdempotencyModule } from './common/idempotency/idempotency.module';
import { loggerOptions } from './common/logging/logger-options';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { createValidationPipe } from './common/validation/validation.pipe';
import { DatabaseModule } from './database/database.module';
import { ApiKeysModule } from './modules/api-keys/api-keys.module';
import { ChargesModule } from './modules/charges/charges.module';
import { CheckoutsModule } from './modules/checkouts/checkouts.module';
import { CouponsModule } from './modules/coupons/coupons.module';
import { CustomersModule } from './modules/customers/customers.module';
import { DashboardModule } from './modules/dashboard/dashboard.module';
import { DisputesModule } from './modules/disputes/disputes.module';
import { EventsModule } from './modules/events/events.module';
import { AuthGuard } from './modules/auth/auth.guard';
import { AuthModule } from './modules/auth/auth.module';
import { FeesModule } from './modules/fees/fees.module';
import { HealthModule } from './modules/health/health.module';
import { LedgerModule } from './modules/ledger/ledger.module';
import { PayPageModule } from './modules/pay-page/pay-page.module';
import { PaymentLinksModule } from './modules/payment-links/payment-links.module';
import { ProductsModule } from './modules/products/products.module';
import { StoresModule } from './modules/stores/stores.module';
import { TransparentsModule } from './modules/transparents/transparents.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';

@Module({})
export class AppModule {
  /** The whole service for one configuration; `main.ts` and the tests build it the same way. */
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerOptions(config)),
        DatabaseModule,
        RateLimitModule,
        IdempotencyModule,
        CsrfModule,
        ViewsModule,
        HealthModule,
        AuthModule,
        ApiKeysModule,
        LedgerModule,
        StoresModule,
        FeesModule,
        EventsModule,
        CustomersModule,
        ProductsModule,
        CouponsModule,
        ChargesModule,
        CheckoutsModule,
        TransparentsModule,
        PaymentLinksModule,
        PayPageModule,
        DisputesModule,
        WebhooksModule,
        DashboardModule,
      ],
      providers: [
        // The rate limit is Express middleware (configureApp): it counts a request before anything authenticates it.
        { provide: APP_GUARD, useClass: AuthGuard },
        // Interceptors nest in this order: the envelope wraps what idempotency stores and replays.
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_INTERCEPTOR, useExisting: IdempotencyInterceptor },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
