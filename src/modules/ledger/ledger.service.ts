import { Injectable } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import { newId } from '../../common/ids';
import type { Executor } from '../../database/database.service';
import { Bucket, LedgerRepository } from './ledger.repository';

export interface LedgerPosting {
  type: string;
  bucket: Bucket;
  /** Signed centavos: positive credits, negative debits. */
  amount: number;
  sourceId: string | null;
  /** Refuse the posting (INSUFFICIENT_FUNDS) if it would take the bucket below zero. */
  requireFunds?: boolean;
}

/**
 * The only way money moves: each posting updates the running balance and writes its ledger row on the
 * caller's transaction, so a money movement, its ledger rows and its event commit together or not at all.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly clock: Clock,
  ) {}

  async post(scope: Scope, postings: LedgerPosting[], trx: Executor): Promise<void> {
    const now = this.clock.nowIso();
    for (const posting of postings) {
      if (!Number.isSafeInteger(posting.amount) || posting.amount === 0) {
        throw new DomainError('INTERNAL', 'Ledger postings must be non-zero whole centavos');
      }
      const applied = await this.ledger.adjust(scope, posting.bucket, posting.amount, now, trx, posting.requireFunds);
      if (!applied) {
        throw new DomainError('INSUFFICIENT_FUNDS', 'The available balance does not cover this amount');
      }
      await this.ledger.insertEntry(
        {
          id: newId('txn'),
          store_id: scope.storeId,
          mode: scope.mode,
          type: posting.type,
          amount: posting.amount,
          bucket: posting.bucket,
          source_id: posting.sourceId,
          created_at: now,
        },
        trx,
      );
    }
  }
}
