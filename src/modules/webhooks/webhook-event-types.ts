/** Every event type of API.md §13 that an endpoint can subscribe to (or "*" for all). */
export const WEBHOOK_EVENT_TYPES = [
  'checkout.created',
  'checkout.paid',
  'checkout.expired',
  'checkout.cancelled',
  'checkout.refunded',
  'payment-link.paid',
  'transparent.created',
  'transparent.paid',
  'transparent.failed',
  'transparent.expired',
  'transparent.cancelled',
  'transparent.refunded',
  'subscription.created',
  'subscription.trial_started',
  'subscription.activated',
  'subscription.renewed',
  'subscription.payment_failed',
  'subscription.plan_changed',
  'subscription.cancelled',
  'dispute.created',
  'dispute.updated',
  'dispute.won',
  'dispute.lost',
  'payout.created',
  'payout.completed',
  'payout.failed',
  'payout.cancelled',
  'coupon.exhausted',
  'webhook.test',
] as const;

export function subscribes(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes('*') || subscribed.includes(type);
}
