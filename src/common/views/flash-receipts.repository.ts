import { Injectable } from '@nestjs/common';
import { DatabaseService, isUniqueViolation } from '../../database/database.service';

/** Which flash messages were already shown: a flash cookie is honoured once, even if a client sends it again. */
@Injectable()
export class FlashReceiptsRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Records the nonce as used; false when it already was. */
  async consume(nonce: string, now: string): Promise<boolean> {
    try {
      await this.database.db.insertInto('flash_receipts').values({ nonce, used_at: now }).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Receipts outlive their cookie (one minute) by far; older ones can go. */
  async forgetBefore(cutoff: string): Promise<void> {
    await this.database.db.deleteFrom('flash_receipts').where('used_at', '<', cutoff).execute();
  }
}
