import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A uniformly random base62 string of `length` chars (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/**
 * Secrets (API keys, session tokens) carry 256 bits of entropy, so a fast hash is enough to store them:
 * there is nothing to brute-force, and the per-request lookup stays a single indexed read.
 */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

export const SECRET_LENGTH = 43; // 43 base62 chars ≈ 256 bits
