import { Module } from '@nestjs/common';
import { ChargesModule } from '../charges/charges.module';
import { DisputesModule } from '../disputes/disputes.module';
import { StoresModule } from '../stores/stores.module';
import { TransparentsController } from './transparents.controller';
import { TransparentsService } from './transparents.service';

@Module({ imports: [ChargesModule, StoresModule, DisputesModule], controllers: [TransparentsController], providers: [TransparentsService] })
export class TransparentsModule {}
