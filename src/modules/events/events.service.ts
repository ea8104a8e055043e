import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { notFound } from '../../common/errors/domain-error';
import { newId } from '../../common/ids';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import type { Executor } from '../../database/database.service';
import type { EventsTable } from '../../database/database.types';
import { EventView, presentEvent } from './event.presenter';
import { EventsRepository } from './events.repository';

/** Work done with every recorded event inside its transaction (the webhook outbox fan-out). */
export type EventHook = (event: EventsTable, trx: Executor) => Promise<void>;

/**
 * Records what happened (API.md §13) on the caller's transaction, so an event exists exactly when the
 * state change that caused it committed. `object` is the resource as `get` returns it at that moment.
 */
@Injectable()
export class EventsService {
  private readonly hooks: EventHook[] = [];

  constructor(
    private readonly events: EventsRepository,
    private readonly clock: Clock,
  ) {}

  onRecorded(hook: EventHook): void {
    this.hooks.push(hook);
  }

  async record(scope: Scope, type: string, object: unknown, trx: Executor): Promise<string> {
    const row: EventsTable = {
      id: newId('evt'),
      store_id: scope.storeId,
      mode: scope.mode,
      type,
      data: JSON.stringify({ object }),
      created_at: this.clock.nowIso(),
    };
    await this.events.insert(row, trx);
    for (const hook of this.hooks) await hook(row, trx);
    return row.id;
  }

  async list(scope: Scope, query: { limit?: number; after?: string; type?: string }): Promise<Page<EventView>> {
    const page = toPageRequest(query);
    return toPage(await this.events.listPage(scope, page, query.type), page, presentEvent);
  }

  async get(scope: Scope, id: string): Promise<EventView> {
    const row = await this.events.findById(scope, id);
    if (!row) throw notFound('Event');
    return presentEvent(row);
  }
}
