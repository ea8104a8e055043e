import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

const KEY_LENGTH = 32;

/**
 * Memory-hard password hashing with scrypt (N = 2^17, r = 8, p = 1 by default: 128 MiB, OWASP's
 * recommendation), stored as a PHC-style string so the parameters travel with each hash and can be
 * raised later without breaking old passwords.
 */
@Injectable()
export class PasswordHasher {
  private readonly costLog2: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.costLog2 = config.passwordHashCostLog2;
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const options = { N: 2 ** this.costLog2, r: 8, p: 1 };
    const derived = await derive(password, salt, options);
    return `$scrypt$ln=${this.costLog2},r=8,p=1$${salt.toString('base64url')}$${derived.toString('base64url')}`;
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const match = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored);
    if (!match) return false;
    const [, ln, r, p, salt, expectedText] = match;
    const expected = Buffer.from(expectedText, 'base64url');
    const derived = await derive(password, Buffer.from(salt, 'base64url'), {
      N: 2 ** Number(ln),
      r: Number(r),
      p: Number(p),
    });
    return derived.length === expected.length && timingSafeEqual(derived, expected);
  }

  /** Spends the same time as a real verification, so unknown emails cannot be told apart by timing. */
  async burn(password: string): Promise<void> {
    await derive(password, randomBytes(16), { N: 2 ** this.costLog2, r: 8, p: 1 });
  }
}

function derive(password: string, salt: Buffer, options: ScryptOptions & { N: number; r: number; p: number }) {
  const maxmem = 256 * options.N * options.r + 1024 * 1024;
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
