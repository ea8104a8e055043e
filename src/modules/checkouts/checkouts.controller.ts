import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Scope } from '../../common/auth/auth-context';
import { CurrentScope, RequiresKey } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { SimulateDisputeDto } from '../disputes/dto/dispute.dto';
import { CheckoutsService } from './checkouts.service';
import {
  CheckoutIdDto,
  CheckoutPageView,
  CheckoutView,
  CreateCheckoutDto,
  ListCheckoutsQueryDto,
  RefundDto,
  SimulateCheckoutPaymentDto,
} from './dto/checkout.dto';

@ApiTags('Checkouts')
@Controller('v1/checkouts')
export class CheckoutsController {
  constructor(private readonly checkouts: CheckoutsService) {}

  @Post('create')
  @RequiresKey('checkouts:write')
  @ApiEnvelope(CheckoutView, 201)
  create(@CurrentScope() scope: Scope, @Body() body: CreateCheckoutDto) {
    return this.checkouts.create(scope, body);
  }

  @Get('list')
  @RequiresKey('checkouts:read')
  @ApiEnvelope(CheckoutPageView)
  list(@CurrentScope() scope: Scope, @Query() query: ListCheckoutsQueryDto) {
    return this.checkouts.list(scope, query);
  }

  @Get('get')
  @RequiresKey('checkouts:read')
  @ApiEnvelope(CheckoutView)
  get(@CurrentScope() scope: Scope, @Query() query: CheckoutIdDto) {
    return this.checkouts.get(scope, query.id);
  }

  @Post('cancel')
  @HttpCode(200)
  @RequiresKey('checkouts:write')
  @ApiEnvelope(CheckoutView)
  cancel(@CurrentScope() scope: Scope, @Body() body: CheckoutIdDto) {
    return this.checkouts.cancel(scope, body.id);
  }

  @Post('refund')
  @HttpCode(200)
  @RequiresKey('checkouts:write')
  @ApiEnvelope(CheckoutView)
  refund(@CurrentScope() scope: Scope, @Body() body: RefundDto) {
    return this.checkouts.refund(scope, body);
  }

  @Post('simulate-payment')
  @HttpCode(200)
  @RequiresKey('checkouts:write')
  @ApiEnvelope(CheckoutView)
  simulatePayment(@CurrentScope() scope: Scope, @Body() body: SimulateCheckoutPaymentDto) {
    return this.checkouts.simulatePayment(scope, body);
  }

  @Post('simulate-expiration')
  @HttpCode(200)
  @RequiresKey('checkouts:write')
  @ApiEnvelope(CheckoutView)
  simulateExpiration(@CurrentScope() scope: Scope, @Body() body: CheckoutIdDto) {
    return this.checkouts.simulateExpiration(scope, body.id);
  }

  @Post('simulate-dispute')
  @HttpCode(200)
  @RequiresKey('checkouts:write')
  @ApiEnvelope(CheckoutView)
  simulateDispute(@CurrentScope() scope: Scope, @Body() body: SimulateDisputeDto) {
    return this.checkouts.simulateDispute(scope, body);
  }
}
