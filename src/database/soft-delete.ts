import type { Scope } from '../common/auth/auth-context';
import type { Executor } from './database.service';

/** Tables whose rows are hidden by `deleted_at` instead of removed (charges may still point at them). */
export type SoftDeletableTable = 'customers' | 'products' | 'coupons';

/** Marks one live row of the store and mode deleted; false when there was none. */
export async function softDeleteScoped(
  executor: Executor,
  table: SoftDeletableTable,
  scope: Scope,
  id: string,
  now: string,
): Promise<boolean> {
  const result = await executor
    .updateTable(table)
    .set({ deleted_at: now, updated_at: now })
    .where('store_id', '=', scope.storeId)
    .where('mode', '=', scope.mode)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
