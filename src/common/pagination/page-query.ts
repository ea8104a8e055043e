import { sql, SelectQueryBuilder } from 'kysely';
import type { PageRequest } from './pagination';

/**
 * Reads one page newest first: `id < cursor`, ordered by id, `limit + 1` rows (the extra row tells
 * whether there is a next page). Ids are time-sortable, and every list table has an index ending in id
 * after its scope columns, so the cost of a page does not grow with the table.
 */
export function applyPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
): SelectQueryBuilder<DB, TB, O> {
  const after = page.afterId === null ? query : query.where(sql.ref('id'), '<', page.afterId);
  return after.orderBy(sql.ref('id'), 'desc').limit(page.limit + 1);
}
