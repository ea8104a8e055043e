import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { applyPage } from '../../common/pagination/page-query';
import type { PageRequest } from '../../common/pagination/pagination';
import { softDeleteScoped } from '../../database/soft-delete';
import { DatabaseService, Executor } from '../../database/database.service';
import type { ProductsTable } from '../../database/database.types';

export type ProductPatch = Partial<Omit<ProductsTable, 'id' | 'store_id' | 'mode' | 'created_at' | 'deleted_at'>>;

@Injectable()
export class ProductsRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: ProductsTable): Promise<void> {
    await this.database.db.insertInto('products').values(row).execute();
  }

  private scoped(scope: Scope, executor: Executor = this.database.db) {
    return executor.selectFrom('products').selectAll().where('store_id', '=', scope.storeId).where('mode', '=', scope.mode);
  }

  findById(scope: Scope, id: string): Promise<ProductsTable | undefined> {
    return this.scoped(scope).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  }

  findByExternalId(scope: Scope, externalId: string): Promise<ProductsTable | undefined> {
    return this.scoped(scope).where('external_id', '=', externalId).where('deleted_at', 'is', null).executeTakeFirst();
  }

  /** Products by id, deleted ones included: charges that reference a product keep reading it. */
  findManyIncludingDeleted(scope: Scope, ids: string[], executor?: Executor): Promise<ProductsTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.scoped(scope, executor).where('id', 'in', ids).execute();
  }

  listPage(scope: Scope, page: PageRequest, filters: { status?: string; externalId?: string }): Promise<ProductsTable[]> {
    let query = this.scoped(scope).where('deleted_at', 'is', null);
    if (filters.status !== undefined) query = query.where('status', '=', filters.status as ProductsTable['status']);
    if (filters.externalId !== undefined) query = query.where('external_id', '=', filters.externalId);
    return applyPage(query, page).execute();
  }

  async update(scope: Scope, id: string, patch: ProductPatch): Promise<void> {
    await this.database.db
      .updateTable('products')
      .set(patch)
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  softDelete(scope: Scope, id: string, now: string): Promise<boolean> {
    return softDeleteScoped(this.database.db, 'products', scope, id, now);
  }
}
