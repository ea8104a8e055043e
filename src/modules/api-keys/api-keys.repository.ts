import { Injectable } from '@nestjs/common';
import { DatabaseService, Executor } from '../../database/database.service';
import type { ApiKeysTable, Mode } from '../../database/database.types';
import type { PageRequest } from '../../common/pagination/pagination';

/** Which keys a caller may see: the store's keys, of one mode when the caller is a key. */
export interface KeyOwnerScope {
  storeId: string;
  mode: Mode | null;
}

export interface ActiveKeyRow extends ApiKeysTable {
  merchant_id: string;
}

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: ApiKeysTable, executor: Executor = this.database.db): Promise<void> {
    await executor.insertInto('api_keys').values(row).execute();
  }

  /** The per-request lookup of the auth guard: one indexed read by hash. */
  findByKeyHash(keyHash: string): Promise<ApiKeysTable | undefined> {
    return this.database.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  }

  findById(owner: KeyOwnerScope, id: string, executor: Executor = this.database.db): Promise<ApiKeysTable | undefined> {
    let query = executor.selectFrom('api_keys').selectAll().where('store_id', '=', owner.storeId).where('id', '=', id);
    if (owner.mode !== null) query = query.where('mode', '=', owner.mode);
    return query.executeTakeFirst();
  }

  listPage(owner: KeyOwnerScope, page: PageRequest, modeFilter: Mode | undefined): Promise<ApiKeysTable[]> {
    let query = this.database.db.selectFrom('api_keys').selectAll().where('store_id', '=', owner.storeId);
    if (owner.mode !== null) query = query.where('mode', '=', owner.mode);
    if (modeFilter !== undefined) query = query.where('mode', '=', modeFilter);
    if (page.afterId !== null) query = query.where('id', '<', page.afterId);
    return query.orderBy('id', 'desc').limit(page.limit + 1).execute();
  }

  async update(
    owner: KeyOwnerScope,
    id: string,
    patch: Partial<Pick<ApiKeysTable, 'name' | 'permissions' | 'expires_at' | 'revoked_at'>>,
    executor: Executor = this.database.db,
  ): Promise<void> {
    let query = executor.updateTable('api_keys').set(patch).where('store_id', '=', owner.storeId).where('id', '=', id);
    if (owner.mode !== null) query = query.where('mode', '=', owner.mode);
    await query.execute();
  }

  /** Records use at most once a minute per key, so authentication stays a read on the hot path. */
  async touchLastUsed(id: string, now: string, staleBefore: string): Promise<void> {
    await this.database.db
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
      .execute();
  }
}
