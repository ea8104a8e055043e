import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Scope } from '../../common/auth/auth-context';
import { CurrentScope, RequiresKey } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { DeletedView } from '../../common/openapi/deleted.view';
import {
  CreateProductDto,
  GetProductQueryDto,
  ListProductsQueryDto,
  ProductIdDto,
  ProductPageView,
  ProductView,
  UpdateProductDto,
} from './dto/product.dto';
import { ProductsService } from './products.service';

@ApiTags('Products')
@Controller('v1/products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post('create')
  @RequiresKey('products:write')
  @ApiEnvelope(ProductView, 201)
  create(@CurrentScope() scope: Scope, @Body() body: CreateProductDto) {
    return this.products.create(scope, body);
  }

  @Get('list')
  @RequiresKey('products:read')
  @ApiEnvelope(ProductPageView)
  list(@CurrentScope() scope: Scope, @Query() query: ListProductsQueryDto) {
    return this.products.list(scope, query);
  }

  @Get('get')
  @RequiresKey('products:read')
  @ApiEnvelope(ProductView)
  get(@CurrentScope() scope: Scope, @Query() query: GetProductQueryDto) {
    return this.products.get(scope, query);
  }

  @Post('update')
  @HttpCode(200)
  @RequiresKey('products:write')
  @ApiEnvelope(ProductView)
  update(@CurrentScope() scope: Scope, @Body() body: UpdateProductDto) {
    return this.products.update(scope, body);
  }

  @Post('delete')
  @HttpCode(200)
  @RequiresKey('products:write')
  @ApiEnvelope(DeletedView)
  delete(@CurrentScope() scope: Scope, @Body() body: ProductIdDto) {
    return this.products.delete(scope, body.id);
  }
}
