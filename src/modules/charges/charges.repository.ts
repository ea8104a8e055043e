import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { applyPage } from '../../common/pagination/page-query';
import type { PageRequest } from '../../common/pagination/pagination';
import { DatabaseService, Executor } from '../../database/database.service';
import type { ChargeKind, ChargeMethod, ChargeStatus, ChargesTable } from '../../database/database.types';

export interface ChargeFilters {
  status?: ChargeStatus;
  method?: ChargeMethod;
  externalId?: string;
  customerId?: string;
  paymentLinkId?: string;
}

/** The time-sortable part of every id, after `<prefix>_` (src/common/ids.ts). */
const ID_SORT_CHARS = 26;

@Injectable()
export class ChargesRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: ChargesTable, executor: Executor): Promise<void> {
    await executor.insertInto('charges').values(row).execute();
  }

  findById(scope: Scope, id: string, executor: Executor = this.database.db, kind?: ChargeKind): Promise<ChargesTable | undefined> {
    let query = executor
      .selectFrom('charges')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id);
    if (kind !== undefined) query = query.where('kind', '=', kind);
    return query.executeTakeFirst();
  }

  /** For the public hosted page, which knows only the id; the row tells the store and mode. */
  findByIdForHostedPage(id: string): Promise<ChargesTable | undefined> {
    return this.database.db.selectFrom('charges').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Moves a charge on only if it is still in one of `from`: the check and the write are one statement,
   * so of two concurrent transitions exactly one applies.
   */
  async updateIfStatus(
    scope: Scope,
    id: string,
    from: readonly ChargeStatus[],
    patch: Partial<ChargesTable>,
    executor: Executor,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('charges')
      .set(patch)
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  listPage(scope: Scope, kind: ChargeKind, page: PageRequest, filters: ChargeFilters): Promise<ChargesTable[]> {
    return applyPage(this.filtered(scope, kind, filters), page).execute();
  }

  /**
   * A page of a kind whose ids carry several prefixes (transparents: `pix_char_`, `bole_`, `card_`). Ids
   * sort by creation time only within one prefix, so each prefix is read as its own index range and the
   * ranges are merged on the time-sortable part: newest first across prefixes, at a constant cost per page.
   */
  async listPageAcrossPrefixes(
    scope: Scope,
    kind: ChargeKind,
    prefixes: readonly string[],
    page: PageRequest,
    filters: ChargeFilters,
  ): Promise<ChargesTable[]> {
    const sortPart = (id: string) => id.slice(-ID_SORT_CHARS);
    const after = page.afterId === null ? null : sortPart(page.afterId);
    const ranges = await Promise.all(
      prefixes.map((prefix) => {
        let query = this.filtered(scope, kind, filters)
          .where('id', '>=', `${prefix}_${'0'.repeat(ID_SORT_CHARS)}`)
          .where('id', '<=', `${prefix}_${'Z'.repeat(ID_SORT_CHARS)}`);
        if (after !== null) query = query.where('id', '<', `${prefix}_${after}`);
        return query.orderBy('id', 'desc').limit(page.limit + 1).execute();
      }),
    );
    return ranges
      .flat()
      .sort((a, b) => (sortPart(a.id) < sortPart(b.id) ? 1 : sortPart(a.id) > sortPart(b.id) ? -1 : 0))
      .slice(0, page.limit + 1);
  }

  private filtered(scope: Scope, kind: ChargeKind, filters: ChargeFilters) {
    let query = this.database.db
      .selectFrom('charges')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode)
      .where('kind', '=', kind);
    if (filters.status !== undefined) query = query.where('status', '=', filters.status);
    if (filters.method !== undefined) query = query.where('method', '=', filters.method);
    if (filters.externalId !== undefined) query = query.where('external_id', '=', filters.externalId);
    if (filters.customerId !== undefined) query = query.where('customer_id', '=', filters.customerId);
    if (filters.paymentLinkId !== undefined) query = query.where('payment_link_id', '=', filters.paymentLinkId);
    return query;
  }

  /** A store's charges of every kind, newest first (the dashboard). */
  listForStore(scope: Scope, page: PageRequest, status?: ChargeStatus): Promise<ChargesTable[]> {
    let query = this.database.db
      .selectFrom('charges')
      .selectAll()
      .where('store_id', '=', scope.storeId)
      .where('mode', '=', scope.mode);
    if (status !== undefined) query = query.where('status', '=', status);
    return applyPage(query, page).execute();
  }

  /** Pending charges past their expiry, oldest deadline first; `scope` narrows to one store and mode. */
  findDueForExpiry(now: string, limit: number, scope?: Scope): Promise<Pick<ChargesTable, 'id' | 'store_id' | 'mode'>[]> {
    let query = this.database.db
      .selectFrom('charges')
      .select(['id', 'store_id', 'mode'])
      .where('status', '=', 'PENDING')
      .where('expires_at', '<=', now);
    if (scope !== undefined) query = query.where('store_id', '=', scope.storeId).where('mode', '=', scope.mode);
    return query.orderBy('expires_at', 'asc').limit(limit).execute();
  }
}
