import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Scope } from '../../common/auth/auth-context';
import { CurrentScope, RequiresKey } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import {
  CreateTransparentDto,
  ListTransparentsQueryDto,
  TransparentCheckView,
  TransparentIdDto,
  TransparentPageView,
  TransparentRefundDto,
  TransparentView,
} from './dto/transparent.dto';
import { SimulateDisputeDto } from '../disputes/dto/dispute.dto';
import { TransparentsService } from './transparents.service';

@ApiTags('Transparent charges')
@Controller('v1/transparents')
export class TransparentsController {
  constructor(private readonly transparents: TransparentsService) {}

  @Post('create')
  @RequiresKey('transparents:write')
  @ApiEnvelope(TransparentView, 201)
  create(@CurrentScope() scope: Scope, @Body() body: CreateTransparentDto) {
    return this.transparents.create(scope, body);
  }

  @Get('list')
  @RequiresKey('transparents:read')
  @ApiEnvelope(TransparentPageView)
  list(@CurrentScope() scope: Scope, @Query() query: ListTransparentsQueryDto) {
    return this.transparents.list(scope, query);
  }

  @Get('get')
  @RequiresKey('transparents:read')
  @ApiEnvelope(TransparentView)
  get(@CurrentScope() scope: Scope, @Query() query: TransparentIdDto) {
    return this.transparents.get(scope, query.id);
  }

  @Get('check')
  @RequiresKey('transparents:read')
  @ApiEnvelope(TransparentCheckView)
  check(@CurrentScope() scope: Scope, @Query() query: TransparentIdDto) {
    return this.transparents.check(scope, query.id);
  }

  @Post('cancel')
  @HttpCode(200)
  @RequiresKey('transparents:write')
  @ApiEnvelope(TransparentView)
  cancel(@CurrentScope() scope: Scope, @Body() body: TransparentIdDto) {
    return this.transparents.cancel(scope, body.id);
  }

  @Post('refund')
  @HttpCode(200)
  @RequiresKey('transparents:write')
  @ApiEnvelope(TransparentView)
  refund(@CurrentScope() scope: Scope, @Body() body: TransparentRefundDto) {
    return this.transparents.refund(scope, body.id, body.reason ?? null);
  }

  @Post('simulate-payment')
  @HttpCode(200)
  @RequiresKey('transparents:write')
  @ApiEnvelope(TransparentView)
  simulatePayment(@CurrentScope() scope: Scope, @Body() body: TransparentIdDto) {
    return this.transparents.simulatePayment(scope, body.id);
  }

  @Post('simulate-expiration')
  @HttpCode(200)
  @RequiresKey('transparents:write')
  @ApiEnvelope(TransparentView)
  simulateExpiration(@CurrentScope() scope: Scope, @Body() body: TransparentIdDto) {
    return this.transparents.simulateExpiration(scope, body.id);
  }

  @Post('simulate-dispute')
  @HttpCode(200)
  @RequiresKey('transparents:write')
  @ApiEnvelope(TransparentView)
  simulateDispute(@CurrentScope() scope: Scope, @Body() body: SimulateDisputeDto) {
    return this.transparents.simulateDispute(scope, body.id, body.reason);
  }
}
