import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Scope } from '../../common/auth/auth-context';
import { CurrentScope, RequiresKey } from '../../common/auth/auth.decorators';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { EventIdDto, EventPageView, EventView, ListEventsQueryDto } from './dto/event.dto';
import { EventsService } from './events.service';

@ApiTags('Events')
@Controller('v1/events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get('list')
  @RequiresKey('webhooks:read')
  @ApiEnvelope(EventPageView)
  list(@CurrentScope() scope: Scope, @Query() query: ListEventsQueryDto) {
    return this.events.list(scope, query);
  }

  @Get('get')
  @RequiresKey('webhooks:read')
  @ApiEnvelope(EventView)
  get(@CurrentScope() scope: Scope, @Query() query: EventIdDto) {
    return this.events.get(scope, query.id);
  }
}
