import { Global, Module } from '@nestjs/common';
import { DatabaseService } from './database.service';
import { SystemStateRepository } from './system-state.repository';

@Global()
@Module({ providers: [DatabaseService, SystemStateRepository], exports: [DatabaseService, SystemStateRepository] })
export class DatabaseModule {}
