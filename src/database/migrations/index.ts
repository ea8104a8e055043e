import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001-foundation';
import * as catalogue from './0002-catalogue';
import * as charges from './0003-charges';
import * as webhooks from './0004-webhooks';
import * as disputes from './0005-disputes';
import * as flash from './0006-flash';

/** Every migration, in order. Imported statically so the built service needs no file-system scan. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-catalogue': catalogue,
  '0003-charges': charges,
  '0004-webhooks': webhooks,
  '0005-disputes': disputes,
  '0006-flash': flash,
};

export class StaticMigrationProvider implements MigrationProvider {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(MIGRATIONS);
  }
}
