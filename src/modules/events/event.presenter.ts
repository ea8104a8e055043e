import type { EventsTable } from '../../database/database.types';

export interface EventView {
  id: string;
  type: string;
  createdAt: string;
  devMode: boolean;
  data: { object: unknown };
}

/** The event object of API.md §13; also exactly the body a webhook delivery POSTs. */
export function presentEvent(row: EventsTable): EventView {
  return {
    id: row.id,
    type: row.type,
    createdAt: row.created_at,
    devMode: row.mode === 'test',
    data: JSON.parse(row.data) as { object: unknown },
  };
}
