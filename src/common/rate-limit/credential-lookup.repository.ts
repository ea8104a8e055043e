import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service';

/**
 * Whether a presented bearer token is a live credential, for choosing its rate-limit bucket (API.md §4:
 * per key, per client IP where no valid key is sent). Looks only at hashes, like authentication.
 */
@Injectable()
export class CredentialLookupRepository {
  constructor(private readonly database: DatabaseService) {}

  async isActive(tokenHash: string, isSession: boolean, now: string): Promise<boolean> {
    if (isSession) {
      const session = await this.database.db
        .selectFrom('sessions')
        .select('id')
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return session !== undefined;
    }
    const key = await this.database.db
      .selectFrom('api_keys')
      .select('id')
      .where('key_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    return key !== undefined;
  }
}
