import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the secret's decoded bytes, as the
 * Standard Webhooks specification defines it; its reference `verify` accepts it.
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${signature}`;
}
