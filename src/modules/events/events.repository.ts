import { Injectable } from '@nestjs/common';
import type { Executor } from '../../database/database.service';
import type { EventsTable } from '../../database/database.types';

@Injectable()
export class EventsRepository {
  async insert(row: EventsTable, executor: Executor): Promise<void> {
    await executor.insertInto('events').values(row).execute();
  }
}
