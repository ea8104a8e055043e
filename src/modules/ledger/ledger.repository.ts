import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { Scope } from '../../common/auth/auth-context';
import type { PageRequest } from '../../common/pagination/pagination';
import { DatabaseService, Executor } from '../../database/database.service';
import type { BalancesTable, LedgerEntriesTable } from '../../database/database.types';

export type Bucket = LedgerEntriesTable['bucket'];

/**
 * The balance ledger (API.md §6). `balances` is the running total of `ledger_entries` per store and
 * mode, updated in the same transaction as every entry, so reading a balance is one row at any size.
 */
@Injectable()
export class LedgerRepository {
  constructor(private readonly database: DatabaseService) {}

  async createBalances(storeId: string, now: string, executor: Executor): Promise<void> {
    await executor
      .insertInto('balances')
      .values(
        (['test', 'live'] as const).map((mode) => ({
          store_id: storeId,
          mode,
          available: 0,
          pending: 0,
          blocked: 0,
          updated_at: now,
        })),
      )
      .execute();
  }

  findBalance(scope: Scope, executor: Executor = this.database.db): Promise<BalancesTable | undefined> {
    return executor
      .selectFrom('balances')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .executeTakeFirst();
  }

  /**
   * Adds `amount` (signed) to one bucket. With `requireAvailable`, the update only happens when the
   * bucket holds at least `-amount`: a conditional update checked for one affected row, so two
   * concurrent debits can never overdraw, on SQLite and PostgreSQL alike.
   */
  async adjust(
    scope: Scope,
    bucket: Bucket,
    amount: number,
    now: string,
    executor: Executor,
    requireFunds = false,
  ): Promise<boolean> {
    let query = executor
      .updateTable('balances')
      .set({ [bucket]: sql`${sql.ref(bucket)} + ${amount}`, updated_at: now })
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode);
    if (requireFunds) query = query.where(bucket, '>=', -amount);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async insertEntry(entry: LedgerEntriesTable, executor: Executor): Promise<void> {
    await executor.insertInto('ledger_entries').values(entry).execute();
  }

  listEntries(scope: Scope, page: PageRequest): Promise<LedgerEntriesTable[]> {
    let query = this.database.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode);
    if (page.afterId !== null) query = query.where('id', '<', page.afterId);
    return query.orderBy('id', 'desc').limit(page.limit + 1).execute();
  }

  /** Sum of the ledger per bucket: what the running balance must equal (used by reconciliation tests). */
  async sumEntries(scope: Scope): Promise<Record<Bucket, number>> {
    const rows = await this.database.db
      .selectFrom('ledger_entries')
      .select(['bucket', (eb) => eb.fn.sum<number>('amount').as('total')])
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .groupBy('bucket')
      .execute();
    const sums: Record<Bucket, number> = { available: 0, pending: 0, blocked: 0 };
    for (const row of rows) sums[row.bucket] = Number(row.total);
    return sums;
  }
}
