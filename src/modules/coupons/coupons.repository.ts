import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { Scope } from '../../common/auth/auth-context';
import { applyPage } from '../../common/pagination/page-query';
import type { PageRequest } from '../../common/pagination/pagination';
import { softDeleteScoped } from '../../database/soft-delete';
import { DatabaseService, Executor } from '../../database/database.service';
import type { CouponsTable } from '../../database/database.types';
import type { CouponStatus } from './dto/coupon.dto';

export type CouponPatch = Partial<Pick<CouponsTable, 'max_redeems' | 'expires_at' | 'notes' | 'metadata' | 'status' | 'updated_at'>>;

@Injectable()
export class CouponsRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: CouponsTable): Promise<void> {
    await this.database.db.insertInto('coupons').values(row).execute();
  }

  private live(scope: Scope, executor: Executor = this.database.db) {
    return executor
      .selectFrom('coupons')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('deleted_at', 'is', null);
  }

  findById(scope: Scope, id: string, executor?: Executor): Promise<CouponsTable | undefined> {
    return this.live(scope, executor).where('id', '=', id).executeTakeFirst();
  }

  findByCode(scope: Scope, code: string, executor?: Executor): Promise<CouponsTable | undefined> {
    return this.live(scope, executor).where('code', '=', code).executeTakeFirst();
  }

  listPage(scope: Scope, page: PageRequest, filters: { status?: CouponStatus; code?: string }, now: string) {
    let query = this.live(scope);
    if (filters.code !== undefined) query = query.where('code', '=', filters.code);
    if (filters.status === 'EXPIRED') query = query.where('expires_at', '<=', now);
    if (filters.status === 'ACTIVE' || filters.status === 'INACTIVE') {
      query = query
        .where('status', '=', filters.status)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
    }
    return applyPage(query, page).execute();
  }

  /**
   * Applies `patch`; false when no row changed. A new finite `max_redeems` only applies while
   * `redeems_count` fits under it, checked in the same statement, so a reservation committed meanwhile
   * can never leave redeemsCount above maxRedeems.
   */
  async update(scope: Scope, id: string, patch: CouponPatch, executor: Executor = this.database.db): Promise<boolean> {
    let query = executor
      .updateTable('coupons')
      .set(patch)
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .where('deleted_at', 'is', null);
    if (patch.max_redeems !== undefined && patch.max_redeems !== -1) query = query.where('redeems_count', '<=', patch.max_redeems);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Takes one redemption if the coupon is usable right now: one conditional update, so concurrent
   * reservations (serialised by SQLite, re-checked row by row by PostgreSQL) never pass maxRedeems.
   */
  async reserveRedemption(scope: Scope, code: string, now: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable('coupons')
      .set({ redeems_count: sql`redeems_count + 1`, updated_at: now })
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('code', '=', code)
      .where('deleted_at', 'is', null)
      .where('status', '=', 'ACTIVE')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .where((eb) => eb.or([eb('max_redeems', '=', -1), eb('redeems_count', '<', eb.ref('max_redeems'))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives back one redemption (checkout expired or cancelled); never below zero. */
  async releaseRedemption(scope: Scope, couponId: string, now: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable('coupons')
      .set({ redeems_count: sql`redeems_count - 1`, updated_at: now })
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', couponId)
      .where('redeems_count', '>', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  softDelete(scope: Scope, id: string, now: string): Promise<boolean> {
    return softDeleteScoped(this.database.db, 'coupons', scope, id, now);
  }
}
