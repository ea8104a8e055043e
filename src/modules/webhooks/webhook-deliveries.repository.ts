import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { applyPage } from '../../common/pagination/page-query';
import type { PageRequest } from '../../common/pagination/pagination';
import { DatabaseService, Executor } from '../../database/database.service';
import type { DeliveryStatus, WebhookDeliveriesTable } from '../../database/database.types';

@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly database: DatabaseService) {}

  async insertMany(rows: WebhookDeliveriesTable[], executor: Executor): Promise<void> {
    if (rows.length > 0) await executor.insertInto('webhook_deliveries').values(rows).execute();
  }

  findById(scope: Scope, id: string): Promise<WebhookDeliveriesTable | undefined> {
    return this.database.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  listPage(scope: Scope, endpointId: string, page: PageRequest, status?: DeliveryStatus): Promise<WebhookDeliveriesTable[]> {
    let query = this.database.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('endpoint_id', '=', endpointId);
    if (status !== undefined) query = query.where('status', '=', status);
    return applyPage(query, page).execute();
  }

  listRecent(scope: Scope, limit: number): Promise<WebhookDeliveriesTable[]> {
    return this.database.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Due deliveries, each endpoint's oldest first, skipping endpoints that already have one in flight
   * (a live lease): per endpoint, events go out in the order they happened.
   */
  findDue(now: string, limit: number): Promise<WebhookDeliveriesTable[]> {
    return this.database.db
      .selectFrom('webhook_deliveries as d')
      .selectAll('d')
      .where('d.status', '=', 'PENDING')
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhook_deliveries as earlier')
              .select('earlier.id')
              .whereRef('earlier.endpoint_id', '=', 'd.endpoint_id')
              .where('earlier.status', '=', 'PENDING')
              .whereRef('earlier.id', '<', 'd.id')
              .where((inner) =>
                inner.or([
                  inner('earlier.next_attempt_at', '<=', now),
                  inner('earlier.locked_until', '>', now),
                ]),
              ),
          ),
        ),
      )
      .orderBy('d.id', 'asc')
      .limit(limit)
      .execute();
  }

  /**
   * Takes a lease on one delivery: a conditional update, so of several workers (instances) exactly one
   * gets it, and a lease left by a crashed worker can be taken again once it runs out.
   */
  async lease(id: string, now: string, until: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('webhook_deliveries')
      .set({ locked_until: until })
      .where('id', '=', id)
      .where('status', '=', 'PENDING')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async recordAttempt(
    id: string,
    patch: Pick<WebhookDeliveriesTable, 'status' | 'attempts' | 'attempt_count' | 'next_attempt_at' | 'updated_at'>,
  ): Promise<void> {
    await this.database.db
      .updateTable('webhook_deliveries')
      .set({ ...patch, locked_until: null })
      .where('id', '=', id)
      .execute();
  }

  /** Drops what is still waiting for an endpoint that was disabled or deleted. */
  async failPendingOf(endpointId: string, now: string): Promise<void> {
    await this.database.db
      .updateTable('webhook_deliveries')
      .set({ status: 'FAILED', next_attempt_at: null, locked_until: null, updated_at: now })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'PENDING')
      .execute();
  }
}
