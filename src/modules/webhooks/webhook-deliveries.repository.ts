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
   * Due deliveries in event order, leaving out endpoints that already have a delivery in flight (a live
   * lease held by this or another instance): per endpoint, one batch at a time, sent in order.
   */
  async findDue(now: string, limit: number): Promise<WebhookDeliveriesTable[]> {
    const busy = await this.database.db
      .selectFrom('webhook_deliveries')
      .select('endpoint_id')
      .distinct()
      .where('status', '=', 'PENDING')
      .where('locked_until', '>', now)
      .execute();
    let query = this.database.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('status', '=', 'PENDING')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]));
    if (busy.length > 0) query = query.where('endpoint_id', 'not in', busy.map((row) => row.endpoint_id));
    return query.orderBy('id', 'asc').limit(limit).execute();
  }

  /**
   * Takes a lease on deliveries: one conditional update, so of several workers (instances) exactly one
   * gets each row, and a lease left by a crashed worker can be taken again once it runs out. Answers
   * the ids this worker now holds.
   */
  async lease(ids: string[], now: string, until: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.database.db
      .updateTable('webhook_deliveries')
      .set({ locked_until: until })
      .where('id', 'in', ids)
      .where('status', '=', 'PENDING')
      .where('next_attempt_at', '<=', now) // not already attempted and rescheduled since the caller read it
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .returning('id')
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** Gives back leases not used (a batch stopped early): the next pass takes them again. */
  async release(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.database.db
      .updateTable('webhook_deliveries')
      .set({ locked_until: null })
      .where('id', 'in', ids)
      .where('status', '=', 'PENDING')
      .execute();
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
