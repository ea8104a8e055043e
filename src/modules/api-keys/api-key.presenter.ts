import type { ApiKeysTable } from '../../database/database.types';
import type { ApiKeyView } from './dto/api-key.dto';

/** The key object of API.md §5: never the hash, never the full key. */
export function presentApiKey(row: ApiKeysTable): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    permissions: JSON.parse(row.permissions) as string[],
    prefix: row.prefix,
    last4: row.last4,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}
