import { Injectable } from '@nestjs/common';
import { DatabaseService, Executor } from '../../database/database.service';
import type { BalancesTable, StoresTable } from '../../database/database.types';
import type { Scope } from '../../common/auth/auth-context';

export type StoreWithBalance = StoresTable & Pick<BalancesTable, 'available' | 'pending' | 'blocked'>;

@Injectable()
export class StoresRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: StoresTable, executor: Executor): Promise<void> {
    await executor.insertInto('stores').values(row).execute();
  }

  findById(storeId: string, executor: Executor = this.database.db): Promise<StoresTable | undefined> {
    return executor.selectFrom('stores').selectAll().where('id', '=', storeId).executeTakeFirst();
  }

  /** The store with its balance of one mode, in one read. */
  findWithBalance(scope: Scope): Promise<StoreWithBalance | undefined> {
    return this.database.db
      .selectFrom('stores')
      .innerJoin('balances', 'balances.store_id', 'stores.id')
      .select([
        'stores.id',
        'stores.merchant_id',
        'stores.name',
        'stores.created_at',
        'balances.available',
        'balances.pending',
        'balances.blocked',
      ])
      .where('stores.id', '=', scope.storeId)
      .where('balances.mode', '=', scope.mode)
      .executeTakeFirst();
  }

  /** A merchant's store (multi-store is a stub: each merchant has exactly one). */
  findByMerchant(merchantId: string, executor: Executor = this.database.db): Promise<StoresTable | undefined> {
    return executor
      .selectFrom('stores')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .orderBy('id', 'asc')
      .executeTakeFirst();
  }
}
