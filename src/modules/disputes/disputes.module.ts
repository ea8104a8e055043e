import { Module } from '@nestjs/common';
import { ChargesModule } from '../charges/charges.module';
import { EventsModule } from '../events/events.module';
import { DisputesController } from './disputes.controller';
import { DisputesRepository } from './disputes.repository';
import { DisputesService } from './disputes.service';

@Module({
  imports: [ChargesModule, EventsModule],
  controllers: [DisputesController],
  providers: [DisputesService, DisputesRepository],
  exports: [DisputesService],
})
export class DisputesModule {}
