import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Scope } from '../../common/auth/auth-context';
import { CurrentScope, RequiresKey } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { DeletedView } from '../../common/openapi/deleted.view';
import { CustomersService } from './customers.service';
import {
  CreateCustomerDto,
  CustomerIdDto,
  CustomerPageView,
  CustomerView,
  ListCustomersQueryDto,
  UpdateCustomerDto,
} from './dto/customer.dto';

@ApiTags('Customers')
@Controller('v1/customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Post('create')
  @RequiresKey('customers:write')
  @ApiEnvelope(CustomerView, 201)
  async create(@CurrentScope() scope: Scope, @Body() body: CreateCustomerDto, @Res({ passthrough: true }) response: Response) {
    const { customer, created } = await this.customers.create(scope, body);
    response.status(created ? 201 : 200);
    return customer;
  }

  @Get('list')
  @RequiresKey('customers:read')
  @ApiEnvelope(CustomerPageView)
  list(@CurrentScope() scope: Scope, @Query() query: ListCustomersQueryDto) {
    return this.customers.list(scope, query);
  }

  @Get('get')
  @RequiresKey('customers:read')
  @ApiEnvelope(CustomerView)
  get(@CurrentScope() scope: Scope, @Query() query: CustomerIdDto) {
    return this.customers.get(scope, query.id);
  }

  @Post('update')
  @HttpCode(200)
  @RequiresKey('customers:write')
  @ApiEnvelope(CustomerView)
  update(@CurrentScope() scope: Scope, @Body() body: UpdateCustomerDto) {
    return this.customers.update(scope, body);
  }

  @Post('delete')
  @HttpCode(200)
  @RequiresKey('customers:write')
  @ApiEnvelope(DeletedView)
  delete(@CurrentScope() scope: Scope, @Body() body: CustomerIdDto) {
    return this.customers.delete(scope, body.id);
  }
}
