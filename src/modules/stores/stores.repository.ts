import { Injectable } from '@nestjs/common';
import { DatabaseService, Executor } from '../../database/database.service';
import type { StoresTable } from '../../database/database.types';

@Injectable()
export class StoresRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: StoresTable, executor: Executor): Promise<void> {
    await executor.insertInto('stores').values(row).execute();
  }

  findById(storeId: string, executor: Executor = this.database.db): Promise<StoresTable | undefined> {
    return executor.selectFrom('stores').selectAll().where('id', '=', storeId).executeTakeFirst();
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
