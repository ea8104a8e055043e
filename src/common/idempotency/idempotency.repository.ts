import { Injectable } from '@nestjs/common';
import { DatabaseService, isUniqueViolation } from '../../database/database.service';
import type { IdempotencyRecordsTable, Mode } from '../../database/database.types';

export interface IdempotencyScope {
  merchantId: string;
  mode: Mode;
  key: string;
}

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Claims the key for one execution; false when a record for it already exists. */
  async claim(scope: IdempotencyScope, fingerprint: string, now: string, expiresAt: string): Promise<boolean> {
    try {
      await this.database.db
        .insertInto('idempotency_records')
        .values({
          merchant_id: scope.merchantId,
          mode: scope.mode,
          idempotency_key: scope.key,
          fingerprint,
          state: 'in_progress',
          response_status: null,
          response_body: null,
          created_at: now,
          expires_at: expiresAt,
        })
        .execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  find(scope: IdempotencyScope): Promise<IdempotencyRecordsTable | undefined> {
    return this.database.db
      .selectFrom('idempotency_records')
      .selectAll()
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('idempotency_key', '=', scope.key)
      .executeTakeFirst();
  }

  async complete(scope: IdempotencyScope, status: number, body: string): Promise<void> {
    await this.database.db
      .updateTable('idempotency_records')
      .set({ state: 'completed', response_status: status, response_body: body })
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('idempotency_key', '=', scope.key)
      .execute();
  }

  /** Forgets a claim whose execution failed unexpectedly (it rolled back, so a retry may run it). */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.database.db
      .deleteFrom('idempotency_records')
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('idempotency_key', '=', scope.key)
      .where('state', '=', 'in_progress')
      .execute();
  }

  /** Removes a record past its 24 h life, so its key can be used afresh. */
  async deleteIfExpired(scope: IdempotencyScope, now: string): Promise<void> {
    await this.database.db
      .deleteFrom('idempotency_records')
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('idempotency_key', '=', scope.key)
      .where('expires_at', '<=', now)
      .execute();
  }

  async purgeExpired(now: string): Promise<number> {
    const result = await this.database.db.deleteFrom('idempotency_records').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
