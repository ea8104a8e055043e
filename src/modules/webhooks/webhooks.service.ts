import { Injectable, OnModuleInit } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import type { Scope } from '../../common/auth/auth-context';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { Page, toPage, toPageRequest } from '../../common/pagination/pagination';
import { DatabaseService, Executor } from '../../database/database.service';
import type { DeliveryStatus, EventsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../database/database.types';
import { EventsService } from '../events/events.service';
import { endpointUrlProblem, isPublicAddress } from './delivery/destination-guard';
import { newWebhookSecret } from './delivery/webhook-signature';
import { WebhookWorker } from './delivery/webhook-worker';
import type {
  CreateWebhookDto,
  DeliveryView,
  ListDeliveriesQueryDto,
  UpdateWebhookDto,
  WebhookView,
  WebhookWithSecretView,
} from './dto/webhook.dto';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { EndpointPatch, WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { subscribes } from './webhook-event-types';
import { presentDelivery, presentWebhook } from './webhook.presenter';
import { badEndpointUrl, deliveryNotFound, webhookNotFound } from './webhooks.errors';

const TEST_EVENT = 'webhook.test';

/** Webhook endpoints, their deliveries, and the outbox fan-out of every recorded event (API.md §13). */
@Injectable()
export class WebhooksService implements OnModuleInit {
  constructor(
    private readonly database: DatabaseService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly events: EventsService,
    private readonly worker: WebhookWorker,
    private readonly clock: Clock,
  ) {}

  /** Every event recorded anywhere gets a delivery per subscribed endpoint, in the event's own transaction. */
  onModuleInit(): void {
    this.events.onRecorded((event, trx) => this.fanOut(event, trx));
  }

  async create(scope: Scope, input: CreateWebhookDto): Promise<WebhookWithSecretView> {
    await this.checkUrl(scope, input.url);
    const now = this.clock.nowIso();
    const row: WebhookEndpointsTable = {
      id: newId('wh'),
      store_id: scope.storeId,
      mode: scope.mode,
      url: input.url,
      events: JSON.stringify(input.events),
      description: input.description ?? null,
      enabled: input.enabled === false ? 0 : 1,
      disabled_reason: null,
      secret: newWebhookSecret(),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await this.endpoints.insert(row);
    return { ...presentWebhook(row), secret: row.secret };
  }

  async list(scope: Scope, query: { limit?: number; after?: string }): Promise<Page<WebhookView>> {
    const page = toPageRequest(query);
    return toPage(await this.endpoints.listPage(scope, page), page, presentWebhook);
  }

  async get(scope: Scope, id: string): Promise<WebhookView> {
    return presentWebhook(await this.find(scope, id));
  }

  async update(scope: Scope, input: UpdateWebhookDto): Promise<WebhookView> {
    await this.find(scope, input.id);
    const now = this.clock.nowIso();
    const patch: EndpointPatch = { updated_at: now };
    if (input.url !== undefined) {
      await this.checkUrl(scope, input.url);
      patch.url = input.url;
    }
    if (input.events !== undefined) patch.events = JSON.stringify(input.events);
    if (input.description !== undefined) patch.description = input.description;
    if (input.enabled !== undefined) {
      patch.enabled = input.enabled ? 1 : 0;
      patch.disabled_reason = null;
    }
    await this.endpoints.update(scope, input.id, patch);
    this.worker.endpointChanged(input.id);
    if (input.enabled === false) await this.deliveries.failPendingOf(input.id, now);
    return this.get(scope, input.id);
  }

  async delete(scope: Scope, id: string): Promise<{ id: string; deleted: true }> {
    const now = this.clock.nowIso();
    if (!(await this.endpoints.update(scope, id, { deleted_at: now, enabled: 0, updated_at: now }))) throw webhookNotFound();
    this.worker.endpointChanged(id);
    await this.deliveries.failPendingOf(id, now);
    return { id, deleted: true };
  }

  async rotateSecret(scope: Scope, id: string): Promise<WebhookWithSecretView> {
    await this.find(scope, id);
    const secret = newWebhookSecret();
    await this.endpoints.update(scope, id, { secret, updated_at: this.clock.nowIso() });
    this.worker.endpointChanged(id);
    return { ...(await this.get(scope, id)), secret };
  }

  /** Sends a `webhook.test` event to this endpoint only; answers its delivery. */
  async test(scope: Scope, id: string): Promise<DeliveryView> {
    const endpoint = await this.find(scope, id);
    const delivery = await this.database.transaction(async (trx) => {
      const eventId = await this.events.record(scope, TEST_EVENT, { endpointId: endpoint.id, message: 'This is a test event.' }, trx);
      const row = this.newDelivery(scope, endpoint.id, eventId, TEST_EVENT);
      await this.deliveries.insertMany([row], trx);
      return row;
    });
    this.worker.nudge();
    return presentDelivery(delivery);
  }

  async listDeliveries(scope: Scope, query: ListDeliveriesQueryDto): Promise<Page<DeliveryView>> {
    await this.find(scope, query.id);
    const page = toPageRequest(query);
    return toPage(await this.deliveries.listPage(scope, query.id, page, query.status as DeliveryStatus | undefined), page, presentDelivery);
  }

  async recentDeliveries(scope: Scope, limit = 20): Promise<DeliveryView[]> {
    return (await this.deliveries.listRecent(scope, limit)).map(presentDelivery);
  }

  /** Sends the event of a delivery again, as a new delivery (same `webhook-id`: the event id). */
  async resend(scope: Scope, deliveryId: string): Promise<DeliveryView> {
    const original = await this.deliveries.findById(scope, deliveryId);
    if (!original) throw deliveryNotFound();
    await this.find(scope, original.endpoint_id);
    const row = this.newDelivery(scope, original.endpoint_id, original.event_id, original.event_type);
    await this.database.transaction((trx) => this.deliveries.insertMany([row], trx));
    this.worker.nudge();
    return presentDelivery(row);
  }

  private async fanOut(event: EventsTable, trx: Executor): Promise<void> {
    if (event.type === TEST_EVENT) return;
    const scope = { storeId: event.store_id, mode: event.mode };
    const endpoints = await this.endpoints.findEnabled(scope, trx);
    const rows = endpoints
      .filter((endpoint) => subscribes(JSON.parse(endpoint.events) as string[], event.type))
      .map((endpoint) => this.newDelivery(scope, endpoint.id, event.id, event.type));
    await this.deliveries.insertMany(rows, trx);
    if (rows.length > 0) this.worker.nudge();
  }

  private newDelivery(scope: Scope, endpointId: string, eventId: string, eventType: string): WebhookDeliveriesTable {
    const now = this.clock.nowIso();
    return {
      id: newId('whd'),
      store_id: scope.storeId,
      mode: scope.mode,
      endpoint_id: endpointId,
      event_id: eventId,
      event_type: eventType,
      status: 'PENDING',
      attempts: '[]',
      attempt_count: 0,
      next_attempt_at: now,
      locked_until: null,
      created_at: now,
      updated_at: now,
    };
  }

  private async find(scope: Scope, id: string): Promise<WebhookEndpointsTable> {
    const row = await this.endpoints.findById(scope, id);
    if (!row) throw webhookNotFound();
    return row;
  }

  /** Live endpoints: https and public, by literal and by what the name resolves to now (checked again at delivery). */
  private async checkUrl(scope: Scope, url: string): Promise<void> {
    const live = scope.mode === 'live';
    const problem = endpointUrlProblem(url, live);
    if (problem !== null) throw badEndpointUrl(problem);
    if (!live) return;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    const addresses = await lookup(host, { all: true }).catch(() => []);
    if (addresses.some((entry) => !isPublicAddress(entry.address))) {
      throw badEndpointUrl('live endpoints must not resolve to a private, loopback or link-local address');
    }
  }
}
