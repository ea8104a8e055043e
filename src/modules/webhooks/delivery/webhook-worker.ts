import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { Clock } from '../../../common/clock';
import type { EventsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../../database/database.types';
import { presentEvent } from '../../events/event.presenter';
import { EventsRepository } from '../../events/events.repository';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../webhook-endpoints.repository';
import { postWebhook } from './webhook-sender';
import { signWebhook } from './webhook-signature';

const TIMEOUT_MS = 10_000;
const PER_ENDPOINT = 20;
/** Long enough for a whole batch of timeouts, so a lease never runs out while its batch is still being sent. */
const LEASE_MS = PER_ENDPOINT * TIMEOUT_MS + 30_000;
const POLL_MS = 200;
/** Within a batch, how often an endpoint is read again in case another instance changed it. */
const RECHECK_EVERY = 5;
const SCAN = 500;

interface Attempt {
  at: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * Delivers pending webhook deliveries from the database (the outbox), so a delivery committed before a
 * crash or restart is still sent. Each delivery is leased by a conditional update before sending, so
 * several instances can run this worker without sending anything twice. Per endpoint, the oldest due
 * deliveries go first, in order, one batch in flight at a time.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookWorker');
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private nudged = false;
  private readonly changedEndpoints = new Set<string>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: EventsRepository,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** SIGTERM: stop taking new deliveries, let the attempts in flight finish and be recorded (the database closes last). */
  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  /** An endpoint was updated, disabled or deleted here: a batch in flight for it reads it again. */
  endpointChanged(endpointId: string): void {
    this.changedEndpoints.add(endpointId);
  }

  /** Something new may be due: look now instead of at the next poll. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /**
   * One pass: leases up to PER_ENDPOINT due deliveries of each endpoint and sends each endpoint's batch in
   * order (endpoints in parallel); answers how many were attempted.
   */
  async runOnce(): Promise<number> {
    const now = this.clock.nowIso();
    const batches = new Map<string, WebhookDeliveriesTable[]>();
    for (const delivery of await this.deliveries.findDue(now, SCAN)) {
      const batch = batches.get(delivery.endpoint_id) ?? [];
      if (batch.length < PER_ENDPOINT) batches.set(delivery.endpoint_id, [...batch, delivery]);
    }
    const candidates = [...batches.values()].flat();
    const held = await this.deliveries.lease(candidates.map((delivery) => delivery.id), now, this.clock.isoIn(LEASE_MS));
    if (held.size === 0) return 0;
    const [endpoints, events] = await Promise.all([
      this.endpoints.findManyByIds([...batches.keys()]),
      this.events.findManyByIds(candidates.filter((delivery) => held.has(delivery.id)).map((delivery) => delivery.event_id)),
    ]);
    const endpointById = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
    const eventById = new Map(events.map((event) => [event.id, event]));
    let attempted = 0;
    await Promise.all(
      [...batches.entries()].map(async ([endpointId, batch]) => {
        const mine = batch.filter((delivery) => held.has(delivery.id));
        for (let index = 0; index < mine.length; index += 1) {
          // The endpoint may have been deleted, disabled or changed while this batch is being sent: read it
          // again when this instance changed it, and every few deliveries for changes made by other instances.
          if (index > 0 && (this.changedEndpoints.delete(endpointId) || index % RECHECK_EVERY === 0)) {
            endpointById.set(endpointId, (await this.endpoints.findManyByIds([endpointId]))[0]);
          }
          const endpoint = endpointById.get(endpointId);
          const delivered = await this.deliver(mine[index], endpoint, eventById.get(mine[index].event_id));
          attempted += 1;
          // A failing receiver gets no more of this batch now; the rest go in order on a later pass.
          if (!delivered) {
            await this.deliveries.release(mine.slice(index + 1).map((delivery) => delivery.id));
            return;
          }
        }
      }),
    );
    return attempted;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.nudged = false;
      let attempted = 0;
      try {
        attempted = await this.runOnce();
      } catch (error) {
        this.logger.error(`delivery pass failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (attempted === 0 && !this.nudged && this.running) await this.sleep(POLL_MS);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  /** Sends one delivery and records the attempt; true when the receiver took it (2xx). */
  private async deliver(
    delivery: WebhookDeliveriesTable,
    endpoint: WebhookEndpointsTable | undefined,
    event: EventsTable | undefined,
  ): Promise<boolean> {
    const attempts = JSON.parse(delivery.attempts) as Attempt[];
    const at = this.clock.nowIso();
    if (!endpoint || endpoint.deleted_at !== null || endpoint.enabled !== 1 || !event) {
      attempts.push({ at, statusCode: null, durationMs: 0, error: 'endpoint disabled or deleted' });
      await this.finish(delivery, attempts, 'FAILED', null);
      return false;
    }
    const body = JSON.stringify(presentEvent(event));
    const timestamp = Math.floor(Date.now() / 1000);
    const result = await postWebhook(
      endpoint.url,
      body,
      {
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(endpoint.secret, event.id, timestamp, body),
        'user-agent': 'payments-webhooks/1',
      },
      { timeoutMs: TIMEOUT_MS, publicOnly: endpoint.mode === 'live' },
    );
    attempts.push({ at, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error });
    if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) {
      await this.finish(delivery, attempts, 'SUCCEEDED', null);
      return true;
    }
    if (result.statusCode === 410) {
      await this.finish(delivery, attempts, 'FAILED', null);
      await this.endpoints.update(
        { storeId: endpoint.store_id, mode: endpoint.mode },
        endpoint.id,
        { enabled: 0, disabled_reason: 'The receiver answered 410 Gone', updated_at: this.clock.nowIso() },
      );
      await this.deliveries.failPendingOf(endpoint.id, this.clock.nowIso());
      return false;
    }
    const schedule = this.config.webhookRetryScheduleSeconds;
    const retryIndex = attempts.length - 1;
    if (retryIndex >= schedule.length) {
      await this.finish(delivery, attempts, 'FAILED', null);
      return false;
    }
    const jitter = 0.9 + Math.random() * 0.2;
    await this.finish(delivery, attempts, 'PENDING', this.clock.isoIn(Math.round(schedule[retryIndex] * 1000 * jitter)));
    return false;
  }

  private finish(delivery: WebhookDeliveriesTable, attempts: Attempt[], status: WebhookDeliveriesTable['status'], nextAttemptAt: string | null) {
    return this.deliveries.recordAttempt(delivery.id, {
      status,
      attempts: JSON.stringify(attempts),
      attempt_count: attempts.length,
      next_attempt_at: nextAttemptAt,
      updated_at: this.clock.nowIso(),
    });
  }
}
