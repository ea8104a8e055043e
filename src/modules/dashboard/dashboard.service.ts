import { Injectable } from '@nestjs/common';
import type { Scope, SessionAuth } from '../../common/auth/auth-context';
import { ALL_PERMISSIONS } from '../../common/auth/permissions';
import { toPage, toPageRequest } from '../../common/pagination/pagination';
import type { ChargeStatus, ChargesTable, Mode } from '../../database/database.types';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AuthService } from '../auth/auth.service';
import { ChargeExpiryService } from '../charges/charge-expiry.service';
import { ChargesRepository } from '../charges/charges.repository';
import { CHARGE_STATUSES } from '../charges/charge-values';
import { LedgerRepository } from '../ledger/ledger.repository';
import { WebhooksService } from '../webhooks/webhooks.service';

const MODES: Mode[] = ['test', 'live'];

export interface ChargeRow {
  id: string;
  kind: string;
  status: ChargeStatus;
  amount: number;
  method: string | null;
  createdAt: string;
  payUrl: string | null;
  mode: Mode;
}

/** What the dashboard pages show, read through the same services and repositories as the API. */
@Injectable()
export class DashboardService {
  constructor(
    private readonly auth: AuthService,
    private readonly keys: ApiKeysService,
    private readonly ledger: LedgerRepository,
    private readonly charges: ChargesRepository,
    private readonly expiry: ChargeExpiryService,
    private readonly endpoints: WebhooksService,
  ) {}

  async nav(session: SessionAuth) {
    const { merchant, store } = await this.auth.me(session);
    return { storeName: store.name, merchantName: merchant.name, email: merchant.email };
  }

  async overview(session: SessionAuth) {
    const balances = await Promise.all(
      MODES.map(async (mode) => {
        const balance = await this.ledger.findBalance({ storeId: session.storeId, mode });
        return { mode, available: balance?.available ?? 0, pending: balance?.pending ?? 0, blocked: balance?.blocked ?? 0 };
      }),
    );
    await Promise.all(MODES.map((mode) => this.expiry.sweep({ storeId: session.storeId, mode })));
    const recent = await this.chargeRows({ storeId: session.storeId, mode: 'test' }, { limit: 10 });
    const recentLive = await this.chargeRows({ storeId: session.storeId, mode: 'live' }, { limit: 10 });
    return { balances, recent: recent.items, recentLive: recentLive.items };
  }

  async payments(session: SessionAuth, query: { mode?: string; status?: string; after?: string }) {
    const mode: Mode = query.mode === 'live' ? 'live' : 'test';
    const status = (CHARGE_STATUSES as readonly string[]).includes(query.status ?? '') ? (query.status as ChargeStatus) : undefined;
    const scope = { storeId: session.storeId, mode };
    await this.expiry.sweep(scope);
    const page = await this.chargeRows(scope, { limit: 25, after: query.after, status });
    return { mode, status: status ?? '', statuses: CHARGE_STATUSES, charges: page.items, next: page.next };
  }

  async apiKeys(session: SessionAuth) {
    const page = await this.keys.list(session, { limit: 100 });
    const now = new Date().toISOString();
    return {
      keys: page.items.map((key) => ({
        ...key,
        state: key.revokedAt !== null ? 'REVOKED' : key.expiresAt !== null && key.expiresAt <= now ? 'EXPIRED' : 'ACTIVE',
        permissionsText: key.permissions.join(', '),
      })),
      permissions: ALL_PERMISSIONS,
    };
  }

  async webhooks(session: SessionAuth, modeQuery?: string) {
    const mode: Mode = modeQuery === 'live' ? 'live' : 'test';
    const scope = { storeId: session.storeId, mode };
    const endpoints = await this.endpoints.list(scope, { limit: 100 });
    const deliveries = await this.endpoints.recentDeliveries(scope, 30);
    return {
      mode,
      endpoints: endpoints.items.map((endpoint) => ({ ...endpoint, eventsText: endpoint.events.join(', ') })),
      deliveries: deliveries.map((delivery) => ({
        ...delivery,
        attemptCount: delivery.attempts.length,
        lastStatusCode: delivery.attempts.at(-1)?.statusCode ?? null,
      })),
    };
  }

  resendDelivery(session: SessionAuth, mode: string, deliveryId: string) {
    return this.endpoints.resend({ storeId: session.storeId, mode: mode === 'live' ? 'live' : 'test' }, deliveryId);
  }

  private async chargeRows(scope: Scope, query: { limit: number; after?: string; status?: ChargeStatus }) {
    const page = toPageRequest({ limit: query.limit, after: query.after || undefined });
    const rows = await this.charges.listForStore(scope, page, query.status);
    return toPage(rows, page, (row: ChargesTable): ChargeRow => ({
      id: row.id,
      kind: row.kind,
      status: row.status,
      amount: row.amount,
      method: row.method,
      createdAt: row.created_at,
      payUrl: row.kind === 'checkout' ? `/pay/${row.id}` : null,
      mode: row.mode,
    }));
  }
}
