import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { applyPage } from '../../common/pagination/page-query';
import type { PageRequest } from '../../common/pagination/pagination';
import { DatabaseService, Executor } from '../../database/database.service';
import type { EventsTable } from '../../database/database.types';

@Injectable()
export class EventsRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: EventsTable, executor: Executor): Promise<void> {
    await executor.insertInto('events').values(row).execute();
  }

  findById(scope: Scope, id: string): Promise<EventsTable | undefined> {
    return this.database.db
      .selectFrom('events')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Events by id for the delivery worker, which already holds each delivery's scope. */
  findManyByIds(ids: string[]): Promise<EventsTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.db.selectFrom('events').selectAll().where('id', 'in', ids).execute();
  }

  listPage(scope: Scope, page: PageRequest, type?: string): Promise<EventsTable[]> {
    let query = this.database.db
      .selectFrom('events')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode);
    if (type !== undefined) query = query.where('type', '=', type);
    return applyPage(query, page).execute();
  }
}
