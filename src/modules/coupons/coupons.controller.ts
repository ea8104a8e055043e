import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Scope } from '../../common/auth/auth-context';
import { CurrentScope, RequiresKey } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { DeletedView } from '../../common/openapi/deleted.view';
import { CouponsService } from './coupons.service';
import {
  CouponIdDto,
  CouponPageView,
  CouponView,
  CreateCouponDto,
  GetCouponQueryDto,
  ListCouponsQueryDto,
  UpdateCouponDto,
} from './dto/coupon.dto';

@ApiTags('Coupons')
@Controller('v1/coupons')
export class CouponsController {
  constructor(private readonly coupons: CouponsService) {}

  @Post('create')
  @RequiresKey('coupons:write')
  @ApiEnvelope(CouponView, 201)
  create(@CurrentScope() scope: Scope, @Body() body: CreateCouponDto) {
    return this.coupons.create(scope, body);
  }

  @Get('list')
  @RequiresKey('coupons:read')
  @ApiEnvelope(CouponPageView)
  list(@CurrentScope() scope: Scope, @Query() query: ListCouponsQueryDto) {
    return this.coupons.list(scope, query);
  }

  @Get('get')
  @RequiresKey('coupons:read')
  @ApiEnvelope(CouponView)
  get(@CurrentScope() scope: Scope, @Query() query: GetCouponQueryDto) {
    return this.coupons.get(scope, query);
  }

  @Post('update')
  @HttpCode(200)
  @RequiresKey('coupons:write')
  @ApiEnvelope(CouponView)
  update(@CurrentScope() scope: Scope, @Body() body: UpdateCouponDto) {
    return this.coupons.update(scope, body);
  }

  @Post('toggle')
  @HttpCode(200)
  @RequiresKey('coupons:write')
  @ApiEnvelope(CouponView)
  toggle(@CurrentScope() scope: Scope, @Body() body: CouponIdDto) {
    return this.coupons.toggle(scope, body.id);
  }

  @Post('delete')
  @HttpCode(200)
  @RequiresKey('coupons:write')
  @ApiEnvelope(DeletedView)
  delete(@CurrentScope() scope: Scope, @Body() body: CouponIdDto) {
    return this.coupons.delete(scope, body.id);
  }
}
