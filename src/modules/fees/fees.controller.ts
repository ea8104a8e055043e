import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequiresKey } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { CalculateFeeQueryDto, FeeQuoteView } from './dto/fee.dto';
import { FeesService } from './fees.service';

@ApiTags('Fees')
@RequiresKey()
@Controller('v1/fees')
export class FeesController {
  constructor(private readonly fees: FeesService) {}

  @Get('calculate')
  @ApiEnvelope(FeeQuoteView)
  calculate(@Query() query: CalculateFeeQueryDto) {
    return this.fees.quote(query.amount, query.method, query.installments);
  }
}
