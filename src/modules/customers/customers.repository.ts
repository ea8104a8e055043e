import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { applyPage } from '../../common/pagination/page-query';
import type { PageRequest } from '../../common/pagination/pagination';
import { softDeleteScoped } from '../../database/soft-delete';
import { DatabaseService } from '../../database/database.service';
import type { CustomersTable } from '../../database/database.types';

export type CustomerPatch = Partial<
  Pick<CustomersTable, 'email' | 'name' | 'cellphone' | 'tax_id' | 'zip_code' | 'metadata' | 'updated_at'>
>;

@Injectable()
export class CustomersRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: CustomersTable): Promise<void> {
    await this.database.db.insertInto('customers').values(row).execute();
  }

  private live(scope: Scope) {
    return this.database.db
      .selectFrom('customers')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('deleted_at', 'is', null);
  }

  findById(scope: Scope, id: string): Promise<CustomersTable | undefined> {
    return this.live(scope).where('id', '=', id).executeTakeFirst();
  }

  findByTaxId(scope: Scope, taxId: string): Promise<CustomersTable | undefined> {
    return this.live(scope).where('tax_id', '=', taxId).executeTakeFirst();
  }

  listPage(scope: Scope, page: PageRequest, filters: { email?: string; taxId?: string }): Promise<CustomersTable[]> {
    let query = this.live(scope);
    if (filters.email !== undefined) query = query.where('email', '=', filters.email);
    if (filters.taxId !== undefined) query = query.where('tax_id', '=', filters.taxId);
    return applyPage(query, page).execute();
  }

  async update(scope: Scope, id: string, patch: CustomerPatch): Promise<void> {
    await this.database.db
      .updateTable('customers')
      .set(patch)
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  softDelete(scope: Scope, id: string, now: string): Promise<boolean> {
    return softDeleteScoped(this.database.db, 'customers', scope, id, now);
  }
}
