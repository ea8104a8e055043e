import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { DomainError } from '../../common/errors/domain-error';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import type { LedgerEntriesTable } from '../../database/database.types';
import { LedgerRepository } from '../ledger/ledger.repository';
import type { LedgerEntryView, ListTransactionsQueryDto, StoreView } from './dto/store.dto';
import { StoresRepository } from './stores.repository';

@Injectable()
export class StoresService {
  constructor(
    private readonly stores: StoresRepository,
    private readonly ledger: LedgerRepository,
  ) {}

  /** The caller's store with the balance of the key's mode (multi-store is a stub: one item). */
  async list(scope: Scope): Promise<Page<StoreView>> {
    const store = await this.stores.findWithBalance(scope);
    if (!store) throw new DomainError('INTERNAL', 'Store of an authenticated key is missing');
    return {
      items: [
        {
          id: store.id,
          name: store.name,
          devMode: scope.mode === 'test',
          balance: { available: store.available, pending: store.pending, blocked: store.blocked },
          createdAt: store.created_at,
        },
      ],
      hasMore: false,
      next: null,
    };
  }

  async transactions(scope: Scope, query: ListTransactionsQueryDto): Promise<Page<LedgerEntryView>> {
    const page = toPageRequest(query);
    return toPage(await this.ledger.listEntries(scope, page), page, presentEntry);
  }
}

function presentEntry(row: LedgerEntriesTable): LedgerEntryView {
  return {
    id: row.id,
    type: row.type,
    amount: row.amount,
    bucket: row.bucket,
    sourceId: row.source_id,
    createdAt: row.created_at,
  };
}
