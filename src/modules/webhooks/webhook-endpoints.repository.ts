import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { applyPage } from '../../common/pagination/page-query';
import type { PageRequest } from '../../common/pagination/pagination';
import { DatabaseService, Executor } from '../../database/database.service';
import type { WebhookEndpointsTable } from '../../database/database.types';

export type EndpointPatch = Partial<
  Pick<WebhookEndpointsTable, 'url' | 'events' | 'description' | 'enabled' | 'disabled_reason' | 'secret' | 'updated_at' | 'deleted_at'>
>;

@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: WebhookEndpointsTable): Promise<void> {
    await this.database.db.insertInto('webhook_endpoints').values(row).execute();
  }

  private live(scope: Scope, executor: Executor = this.database.db) {
    return executor
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('deleted_at', 'is', null);
  }

  findById(scope: Scope, id: string): Promise<WebhookEndpointsTable | undefined> {
    return this.live(scope).where('id', '=', id).executeTakeFirst();
  }

  /** Enabled endpoints of a store and mode: the fan-out of every recorded event. */
  findEnabled(scope: Scope, executor: Executor): Promise<WebhookEndpointsTable[]> {
    return this.live(scope, executor).where('enabled', '=', 1).execute();
  }

  /** Endpoints by id for the delivery worker (deleted ones included: their pending deliveries are dropped). */
  findManyByIds(ids: string[]): Promise<WebhookEndpointsTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', ids).execute();
  }

  listPage(scope: Scope, page: PageRequest): Promise<WebhookEndpointsTable[]> {
    return applyPage(this.live(scope), page).execute();
  }

  async update(scope: Scope, id: string, patch: EndpointPatch): Promise<boolean> {
    const result = await this.database.db
      .updateTable('webhook_endpoints')
      .set(patch)
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
