import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Scope } from '../../common/auth/auth-context';
import { CurrentScope, RequiresKey } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { ListQueryDto } from '../../common/pagination/pagination';
import { CheckoutPageView, CheckoutView, RefundDto } from '../checkouts/dto/checkout.dto';
import {
  CreatePaymentLinkDto,
  LinkPaymentsQueryDto,
  PaymentLinkIdDto,
  PaymentLinkPageView,
  PaymentLinkView,
  SimulateLinkPaymentDto,
  UpdatePaymentLinkDto,
} from './dto/payment-link.dto';
import { PaymentLinksService } from './payment-links.service';

@ApiTags('Payment links')
@Controller('v1/payment-links')
export class PaymentLinksController {
  constructor(private readonly links: PaymentLinksService) {}

  @Post('create')
  @RequiresKey('payment-links:write')
  @ApiEnvelope(PaymentLinkView, 201)
  create(@CurrentScope() scope: Scope, @Body() body: CreatePaymentLinkDto) {
    return this.links.create(scope, body);
  }

  @Get('list')
  @RequiresKey('payment-links:read')
  @ApiEnvelope(PaymentLinkPageView)
  list(@CurrentScope() scope: Scope, @Query() query: ListQueryDto) {
    return this.links.list(scope, query);
  }

  @Get('get')
  @RequiresKey('payment-links:read')
  @ApiEnvelope(PaymentLinkView)
  get(@CurrentScope() scope: Scope, @Query() query: PaymentLinkIdDto) {
    return this.links.get(scope, query.id);
  }

  @Post('update')
  @HttpCode(200)
  @RequiresKey('payment-links:write')
  @ApiEnvelope(PaymentLinkView)
  update(@CurrentScope() scope: Scope, @Body() body: UpdatePaymentLinkDto) {
    return this.links.update(scope, body);
  }

  @Post('toggle')
  @HttpCode(200)
  @RequiresKey('payment-links:write')
  @ApiEnvelope(PaymentLinkView)
  toggle(@CurrentScope() scope: Scope, @Body() body: PaymentLinkIdDto) {
    return this.links.toggle(scope, body.id);
  }

  @Get('payments')
  @RequiresKey('payment-links:read')
  @ApiEnvelope(CheckoutPageView)
  payments(@CurrentScope() scope: Scope, @Query() query: LinkPaymentsQueryDto) {
    return this.links.payments(scope, query);
  }

  @Post('simulate-payment')
  @HttpCode(200)
  @RequiresKey('payment-links:write')
  @ApiEnvelope(CheckoutView)
  simulatePayment(@CurrentScope() scope: Scope, @Body() body: SimulateLinkPaymentDto) {
    return this.links.simulatePayment(scope, body.id, body.customer);
  }

  @Post('refund')
  @HttpCode(200)
  @RequiresKey('payment-links:write')
  @ApiEnvelope(CheckoutView)
  refund(@CurrentScope() scope: Scope, @Body() body: RefundDto) {
    return this.links.refund(scope, body.id, body.reason ?? null);
  }
}
