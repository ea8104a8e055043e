import { Global, Module } from '@nestjs/common';
import { FlashService } from './flash.service';

@Global()
@Module({ providers: [FlashService], exports: [FlashService] })
export class ViewsModule {}
