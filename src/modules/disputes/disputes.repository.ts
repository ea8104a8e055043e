import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { applyPage } from '../../common/pagination/page-query';
import type { PageRequest } from '../../common/pagination/pagination';
import { DatabaseService, Executor } from '../../database/database.service';
import type { DisputeStatus, DisputesTable } from '../../database/database.types';

@Injectable()
export class DisputesRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: DisputesTable, executor: Executor): Promise<void> {
    await executor.insertInto('disputes').values(row).execute();
  }

  findById(scope: Scope, id: string, executor: Executor = this.database.db): Promise<DisputesTable | undefined> {
    return executor
      .selectFrom('disputes')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  listPage(scope: Scope, page: PageRequest, filters: { status?: DisputeStatus; chargeId?: string }): Promise<DisputesTable[]> {
    let query = this.database.db.selectFrom('disputes').selectAll().where('store_id', '=', scope.storeId).where('mode', '=', scope.mode);
    if (filters.status !== undefined) query = query.where('status', '=', filters.status);
    if (filters.chargeId !== undefined) query = query.where('charge_id', '=', filters.chargeId);
    return applyPage(query, page).execute();
  }

  /** Moves a dispute on only if it is still in one of `from` (one statement: concurrent actions cannot both apply). */
  async updateIfStatus(
    scope: Scope,
    id: string,
    from: readonly DisputeStatus[],
    patch: Partial<DisputesTable>,
    executor: Executor,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('disputes')
      .set(patch)
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
