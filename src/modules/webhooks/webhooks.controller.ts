import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Scope } from '../../common/auth/auth-context';
import { CurrentScope, RequiresKey } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { DeletedView } from '../../common/openapi/deleted.view';
import { ListQueryDto } from '../../common/pagination/pagination';
import {
  CreateWebhookDto,
  DeliveryPageView,
  DeliveryView,
  ListDeliveriesQueryDto,
  ResendDeliveryDto,
  UpdateWebhookDto,
  WebhookIdDto,
  WebhookPageView,
  WebhookView,
  WebhookWithSecretView,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

@ApiTags('Webhooks')
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('create')
  @RequiresKey('webhooks:write')
  @ApiEnvelope(WebhookWithSecretView, 201)
  create(@CurrentScope() scope: Scope, @Body() body: CreateWebhookDto) {
    return this.webhooks.create(scope, body);
  }

  @Get('list')
  @RequiresKey('webhooks:read')
  @ApiEnvelope(WebhookPageView)
  list(@CurrentScope() scope: Scope, @Query() query: ListQueryDto) {
    return this.webhooks.list(scope, query);
  }

  @Get('get')
  @RequiresKey('webhooks:read')
  @ApiEnvelope(WebhookView)
  get(@CurrentScope() scope: Scope, @Query() query: WebhookIdDto) {
    return this.webhooks.get(scope, query.id);
  }

  @Post('update')
  @HttpCode(200)
  @RequiresKey('webhooks:write')
  @ApiEnvelope(WebhookView)
  update(@CurrentScope() scope: Scope, @Body() body: UpdateWebhookDto) {
    return this.webhooks.update(scope, body);
  }

  @Post('delete')
  @HttpCode(200)
  @RequiresKey('webhooks:write')
  @ApiEnvelope(DeletedView)
  delete(@CurrentScope() scope: Scope, @Body() body: WebhookIdDto) {
    return this.webhooks.delete(scope, body.id);
  }

  @Post('rotate-secret')
  @HttpCode(200)
  @RequiresKey('webhooks:write')
  @ApiEnvelope(WebhookWithSecretView)
  rotateSecret(@CurrentScope() scope: Scope, @Body() body: WebhookIdDto) {
    return this.webhooks.rotateSecret(scope, body.id);
  }

  @Post('test')
  @HttpCode(200)
  @RequiresKey('webhooks:write')
  @ApiEnvelope(DeliveryView)
  test(@CurrentScope() scope: Scope, @Body() body: WebhookIdDto) {
    return this.webhooks.test(scope, body.id);
  }

  @Get('deliveries')
  @RequiresKey('webhooks:read')
  @ApiEnvelope(DeliveryPageView)
  deliveries(@CurrentScope() scope: Scope, @Query() query: ListDeliveriesQueryDto) {
    return this.webhooks.listDeliveries(scope, query);
  }

  @Post('resend')
  @HttpCode(200)
  @RequiresKey('webhooks:write')
  @ApiEnvelope(DeliveryView)
  resend(@CurrentScope() scope: Scope, @Body() body: ResendDeliveryDto) {
    return this.webhooks.resend(scope, body.deliveryId);
  }
}
