import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { Scope } from '../../common/auth/auth-context';
import { applyPage } from '../../common/pagination/page-query';
import type { PageRequest } from '../../common/pagination/pagination';
import { DatabaseService, Executor } from '../../database/database.service';
import type { PaymentLinksTable } from '../../database/database.types';

export type PaymentLinkPatch = Partial<
  Pick<PaymentLinksTable, 'name' | 'completion_url' | 'max_payments' | 'expires_at' | 'metadata' | 'status' | 'updated_at'>
>;

@Injectable()
export class PaymentLinksRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: PaymentLinksTable): Promise<void> {
    await this.database.db.insertInto('payment_links').values(row).execute();
  }

  findById(scope: Scope, id: string, executor: Executor = this.database.db): Promise<PaymentLinksTable | undefined> {
    return executor
      .selectFrom('payment_links')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** For the public hosted page, which knows only the id; the row tells the store and mode. */
  findByIdForHostedPage(id: string): Promise<PaymentLinksTable | undefined> {
    return this.database.db.selectFrom('payment_links').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listPage(scope: Scope, page: PageRequest): Promise<PaymentLinksTable[]> {
    const query = this.database.db
      .selectFrom('payment_links')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode);
    return applyPage(query, page).execute();
  }

  /** Applies `patch`; a new maxPayments only while it is not below the payments already counted. */
  async update(scope: Scope, id: string, patch: PaymentLinkPatch): Promise<boolean> {
    let query = this.database.db
      .updateTable('payment_links')
      .set(patch)
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id);
    if (patch.max_payments !== undefined && patch.max_payments !== null) {
      query = query.where('payments_count', '<=', patch.max_payments);
    }
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Counts one payment if the link still accepts it (active, not expired, under maxPayments): one
   * conditional update, so concurrent buyers can never pass maxPayments.
   */
  async countPayment(scope: Scope, id: string, now: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable('payment_links')
      .set({ payments_count: sql`payments_count + 1`, updated_at: now })
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .where('status', '=', 'ACTIVE')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .where((eb) => eb.or([eb('max_payments', 'is', null), eb('payments_count', '<', eb.ref('max_payments'))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
