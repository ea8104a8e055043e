import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { conflict } from '../../common/errors/domain-error';
import { newId } from '../../common/ids';
import { Executor, isUniqueViolation } from '../../database/database.service';
import type { MerchantsTable, StoresTable } from '../../database/database.types';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { ApiKeyWithSecretView } from '../api-keys/dto/api-key.dto';
import { LedgerRepository } from '../ledger/ledger.repository';
import { StoresRepository } from '../stores/stores.repository';
import { MerchantsRepository } from './merchants.repository';

export interface NewAccount {
  merchant: MerchantsTable;
  store: StoresTable;
  apiKey: ApiKeyWithSecretView;
}

/** Opens a merchant account: merchant, store, zeroed balances and the default sandbox key, in one transaction. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly merchants: MerchantsRepository,
    private readonly stores: StoresRepository,
    private readonly ledger: LedgerRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly clock: Clock,
  ) {}

  async open(
    input: { name: string; email: string; passwordHash: string | null; storeName: string; defaultKeySecret?: string },
    executor: Executor,
  ): Promise<NewAccount> {
    const now = this.clock.nowIso();
    const merchant: MerchantsTable = {
      id: newId('mrc'),
      name: input.name,
      email: input.email,
      password_hash: input.passwordHash,
      created_at: now,
    };
    const store: StoresTable = { id: newId('store'), merchant_id: merchant.id, name: input.storeName, created_at: now };
    try {
      await this.merchants.insert(merchant, executor);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('An account with this email already exists');
      throw error;
    }
    await this.stores.insert(store, executor);
    await this.ledger.createBalances(store.id, now, executor);
    const apiKey = await this.apiKeys.issue(
      { merchantId: merchant.id, storeId: store.id },
      { name: 'Default sandbox key', mode: 'test', grants: ['*'], expiresAt: null },
      executor,
      input.defaultKeySecret,
    );
    return { merchant, store, apiKey };
  }
}
