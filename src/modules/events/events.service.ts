import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import type { Executor } from '../../database/database.service';
import { EventsRepository } from './events.repository';

/**
 * Records what happened (API.md §13) on the caller's transaction, so an event exists exactly when the
 * state change that caused it committed. `object` is the resource as `get` returns it at that moment.
 */
@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly clock: Clock,
  ) {}

  async record(scope: Scope, type: string, object: unknown, trx: Executor): Promise<string> {
    const id = newId('evt');
    await this.events.insert(
      {
        id,
        store_id: scope.storeId,
        mode: scope.mode,
        type,
        data: JSON.stringify({ object }),
        created_at: this.clock.nowIso(),
      },
      trx,
    );
    return id;
  }
}
