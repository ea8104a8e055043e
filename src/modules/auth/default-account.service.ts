import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { randomBase62, SECRET_LENGTH } from '../../common/crypto/secrets';
import { DatabaseService } from '../../database/database.service';
import { MerchantsRepository } from './merchants.repository';
import { AccountsService } from './accounts.service';

export const DEFAULT_MERCHANT_EMAIL = 'default@merchant.local';

/**
 * API.md §2.3: on first start with an empty database, a default merchant, its store and a `*` sandbox key
 * (DEFAULT_API_KEY or random), logged once and written to $DATA_DIR/default-api-key (0600). The default
 * merchant has no password: it is reached with the key, not through the dashboard.
 */
@Injectable()
export class DefaultAccountService implements OnApplicationBootstrap {
  private readonly logger = new Logger('DefaultAccount');

  constructor(
    private readonly database: DatabaseService,
    private readonly merchants: MerchantsRepository,
    private readonly accounts: AccountsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const secret = this.config.defaultApiKey ?? `sk_test_${randomBase62(SECRET_LENGTH)}`;
    const created = await this.database.transaction(async (trx) => {
      if ((await this.merchants.count(trx)) > 0) return false;
      await this.accounts.open(
        { name: 'Default merchant', email: DEFAULT_MERCHANT_EMAIL, passwordHash: null, storeName: 'Default store', defaultKeySecret: secret },
        trx,
      );
      return true;
    });
    if (!created) return;
    const file = join(this.config.dataDir, 'default-api-key');
    mkdirSync(this.config.dataDir, { recursive: true });
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    this.logger.log(`Default sandbox API key created (shown once, also written to ${file}): ${secret}`);
  }
}
