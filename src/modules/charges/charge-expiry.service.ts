import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import { DatabaseService } from '../../database/database.service';
import type { ChargesTable } from '../../database/database.types';
import { ChargeTransitionsService } from './charge-transitions.service';
import { ChargesRepository } from './charges.repository';

const SWEEP_INTERVAL_MS = 15_000;
const SWEEP_BATCH = 200;

/**
 * PENDING charges past `expiresAt` become EXPIRED (API.md §9): on read at the latest, and by a periodic
 * sweep, so `checkout.expired` fires and coupon reservations come back even if nobody looks.
 */
@Injectable()
export class ChargeExpiryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ChargeExpiryService.name);
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly charges: ChargesRepository,
    private readonly transitions: ChargeTransitionsService,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep().catch((error: unknown) => this.logger.error(String(error))), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }

  /** Expires every due charge (of one store and mode when `scope` is given); returns how many. */
  sweep(scope?: Scope): Promise<number> {
    const run = async () => {
      let expired = 0;
      for (;;) {
        const due = await this.charges.findDueForExpiry(this.clock.nowIso(), SWEEP_BATCH, scope);
        for (const charge of due) {
          if (await this.expire({ storeId: charge.store_id, mode: charge.mode }, charge.id)) expired += 1;
        }
        if (due.length < SWEEP_BATCH) return expired;
      }
    };
    if (scope !== undefined) return run();
    this.sweeping = run().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  /** The charge as it is now: expired first if it is a due PENDING charge. */
  async refresh(scope: Scope, charge: ChargesTable): Promise<ChargesTable> {
    if (!this.isDue(charge)) return charge;
    await this.expire(scope, charge.id);
    return (await this.charges.findById(scope, charge.id)) ?? charge;
  }

  isDue(charge: ChargesTable): boolean {
    return charge.status === 'PENDING' && charge.expires_at !== null && charge.expires_at <= this.clock.nowIso();
  }

  private async expire(scope: Scope, chargeId: string): Promise<boolean> {
    try {
      await this.database.transaction((trx) => this.transitions.apply(scope, chargeId, 'expire', trx));
      return true;
    } catch (error) {
      // Another request or instance moved it first (paid at the last second, or expired already).
      if (error instanceof DomainError && error.code === 'INVALID_STATE') return false;
      throw error;
    }
  }
}
