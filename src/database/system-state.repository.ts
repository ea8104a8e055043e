import { Injectable } from '@nestjs/common';
import { DatabaseService, isUniqueViolation } from './database.service';

/** Service-wide values kept in the database, so every instance shares them (secrets made on first start). */
@Injectable()
export class SystemStateRepository {
  constructor(private readonly database: DatabaseService) {}

  /** The stored value of `key`, or `create()` stored now; a concurrent first start keeps the winner's value. */
  async getOrCreate(key: string, create: () => string): Promise<string> {
    const existing = await this.find(key);
    if (existing !== undefined) return existing;
    try {
      await this.database.db.insertInto('system_state').values({ key, value: create() }).execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const stored = await this.find(key);
    if (stored === undefined) throw new Error(`system state ${key} vanished`);
    return stored;
  }

  private async find(key: string): Promise<string | undefined> {
    const row = await this.database.db.selectFrom('system_state').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }
}
