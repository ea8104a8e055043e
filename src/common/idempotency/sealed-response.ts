import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Stored idempotent answers can hold secrets shown once (a new API key, a webhook secret). They are
 * kept encrypted with AES-256-GCM under a key derived from the caller's own credential and the
 * Idempotency-Key: the database holds only the credential's hash, so a stored answer can be opened
 * only by a retry that presents the same credential.
 */
function keyFor(credential: string, idempotencyKey: string): Buffer {
  return createHmac('sha256', credential).update(`idempotency-response:${idempotencyKey}`).digest();
}

export function sealResponse(plaintext: string, credential: string, idempotencyKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(credential, idempotencyKey), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/** The stored answer, or null when `credential` is not the one that sealed it. */
export function openResponse(sealed: string, credential: string, idempotencyKey: string): string | null {
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(credential, idempotencyKey), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
