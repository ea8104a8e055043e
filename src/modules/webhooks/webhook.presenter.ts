import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../../database/database.types';
import type { DeliveryAttemptView, DeliveryView, WebhookView } from './dto/webhook.dto';

export function presentWebhook(row: WebhookEndpointsTable): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    description: row.description,
    devMode: row.mode === 'test',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function presentDelivery(row: WebhookDeliveriesTable): DeliveryView {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: JSON.parse(row.attempts) as DeliveryAttemptView[],
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
  };
}
