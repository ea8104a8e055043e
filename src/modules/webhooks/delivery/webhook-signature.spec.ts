import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newWebhookSecret, signWebhook } from './webhook-signature';

/** API.md §13: Standard Webhooks signature, checked with the specification's reference library. */
describe('webhook signature', () => {
  const body = JSON.stringify({ id: 'evt_01JD2Z3M4N5P6Q7R8S9T0V1W2X', type: 'checkout.paid', data: { object: { amount: 1000 } } });
  const id = 'evt_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const headers = (signature: string, timestamp: number, msgId = id) => ({
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  });

  it('makes secrets "whsec_" + base64 of 32 random bytes', () => {
    const secrets = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const secret = newWebhookSecret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const raw = secret.slice('whsec_'.length);
      expect(Buffer.from(raw, 'base64')).toHaveLength(32);
      expect(Buffer.from(raw, 'base64').toString('base64')).toBe(raw);
      secrets.add(secret);
    }
    expect(secrets.size).toBe(20);
  });

  it('signs "v1,<base64>" that standardwebhooks verifies', () => {
    const secret = newWebhookSecret();
    const timestamp = nowSeconds();
    const signature = signWebhook(secret, id, timestamp, body);
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers(signature, timestamp))).toEqual(JSON.parse(body));
  });

  it('equals the reference implementation byte for byte', () => {
    const secret = newWebhookSecret();
    const timestamp = nowSeconds();
    expect(signWebhook(secret, id, timestamp, body)).toBe(new Webhook(secret).sign(id, new Date(timestamp * 1000), body));
  });

  it('fails verification for a tampered body, id or timestamp, or another secret', () => {
    const secret = newWebhookSecret();
    const timestamp = nowSeconds();
    const signature = signWebhook(secret, id, timestamp, body);
    const verifier = new Webhook(secret);
    const tampered = body.replace('1000', '1001');
    expect(tampered).not.toBe(body);
    expect(() => verifier.verify(tampered, headers(signature, timestamp))).toThrow(WebhookVerificationError);
    expect(() => verifier.verify(body, headers(signature, timestamp, 'evt_other'))).toThrow(WebhookVerificationError);
    expect(() => verifier.verify(body, headers(signature, timestamp + 1))).toThrow(WebhookVerificationError);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers(signature, timestamp))).toThrow(WebhookVerificationError);
  });
});
