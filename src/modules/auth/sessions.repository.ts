import { Injectable } from '@nestjs/common';
import { DatabaseService, Executor } from '../../database/database.service';
import type { SessionsTable } from '../../database/database.types';

export interface ActiveSession {
  id: string;
  merchant_id: string;
  store_id: string;
}

@Injectable()
export class SessionsRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(row: SessionsTable, executor: Executor = this.database.db): Promise<void> {
    await executor.insertInto('sessions').values(row).execute();
  }

  /** The session of a token hash if it is neither revoked nor expired, with its merchant's store. */
  findActiveByTokenHash(tokenHash: string, now: string): Promise<ActiveSession | undefined> {
    return this.database.db
      .selectFrom('sessions')
      .innerJoin('stores', 'stores.merchant_id', 'sessions.merchant_id')
      .select(['sessions.id as id', 'sessions.merchant_id as merchant_id', 'stores.id as store_id'])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .orderBy('stores.id', 'asc')
      .executeTakeFirst();
  }

  async revoke(merchantId: string, sessionId: string, now: string): Promise<void> {
    await this.database.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('merchant_id', '=', merchantId)
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
