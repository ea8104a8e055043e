import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Scope } from '../../common/auth/auth-context';
import { CurrentScope, RequiresKey } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { DisputesService } from './disputes.service';
import {
  DisputeIdDto,
  DisputePageView,
  DisputeView,
  ListDisputesQueryDto,
  SimulateResolutionDto,
  SubmitEvidenceDto,
} from './dto/dispute.dto';

@ApiTags('Disputes')
@Controller('v1/disputes')
export class DisputesController {
  constructor(private readonly disputes: DisputesService) {}

  @Get('list')
  @RequiresKey('disputes:read')
  @ApiEnvelope(DisputePageView)
  list(@CurrentScope() scope: Scope, @Query() query: ListDisputesQueryDto) {
    return this.disputes.list(scope, query);
  }

  @Get('get')
  @RequiresKey('disputes:read')
  @ApiEnvelope(DisputeView)
  get(@CurrentScope() scope: Scope, @Query() query: DisputeIdDto) {
    return this.disputes.get(scope, query.id);
  }

  @Post('submit-evidence')
  @HttpCode(200)
  @RequiresKey('disputes:write')
  @ApiEnvelope(DisputeView)
  submitEvidence(@CurrentScope() scope: Scope, @Body() body: SubmitEvidenceDto) {
    return this.disputes.submitEvidence(scope, body.id, body.evidence);
  }

  @Post('accept')
  @HttpCode(200)
  @RequiresKey('disputes:write')
  @ApiEnvelope(DisputeView)
  accept(@CurrentScope() scope: Scope, @Body() body: DisputeIdDto) {
    return this.disputes.accept(scope, body.id);
  }

  @Post('simulate-resolution')
  @HttpCode(200)
  @RequiresKey('disputes:write')
  @ApiEnvelope(DisputeView)
  simulateResolution(@CurrentScope() scope: Scope, @Body() body: SimulateResolutionDto) {
    return this.disputes.simulateResolution(scope, body.id, body.outcome);
  }
}
