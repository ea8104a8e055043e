import { Global, Module } from '@nestjs/common';
import { FlashReceiptsRepository } from './flash-receipts.repository';
import { FlashService } from './flash.service';

@Global()
@Module({ providers: [FlashService, FlashReceiptsRepository], exports: [FlashService] })
export class ViewsModule {}
