import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Scope } from '../../common/auth/auth-context';
import { CurrentScope, RequiresKey } from '../../common/auth/auth.decorators';
import { NoParamsDto } from '../../common/validation/no-params.dto';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { LedgerEntryPageView, ListTransactionsQueryDto, StorePageView } from './dto/store.dto';
import { StoresService } from './stores.service';

@ApiTags('Stores')
@RequiresKey()
@Controller('v1/stores')
export class StoresController {
  constructor(private readonly stores: StoresService) {}

  @Get('list')
  @ApiEnvelope(StorePageView)
  list(@CurrentScope() scope: Scope, @Query() _query: NoParamsDto) {
    return this.stores.list(scope);
  }

  @Get('transactions')
  @ApiEnvelope(LedgerEntryPageView)
  transactions(@CurrentScope() scope: Scope, @Query() query: ListTransactionsQueryDto) {
    return this.stores.transactions(scope, query);
  }
}
