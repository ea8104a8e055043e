import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { WebhookWorker } from './delivery/webhook-worker';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [EventsModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookEndpointsRepository, WebhookDeliveriesRepository, WebhookWorker],
  exports: [WebhooksService],
})
export class WebhooksModule {}
