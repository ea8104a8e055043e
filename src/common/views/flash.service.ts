import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SystemStateRepository } from '../../database/system-state.repository';
import { FlashReceiptsRepository } from './flash-receipts.repository';

const COOKIE = 'flash';
const RECEIPT_RETENTION_MS = 10 * 60_000;

/**
 * One-time messages carried across a post/redirect/get, such as a new API key's secret that the next
 * page shows once. Encrypted (AES-256-GCM, key kept in the database), HttpOnly, strict, a minute long,
 * and cleared by the page that reads it.
 */
@Injectable()
export class FlashService implements OnApplicationBootstrap {
  private key: Buffer = Buffer.alloc(0);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly systemState: SystemStateRepository,
    private readonly receipts: FlashReceiptsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.key = Buffer.from(await this.systemState.getOrCreate('flash_key', () => randomBytes(32).toString('base64')), 'base64');
  }

  set(response: Response, payload: Record<string, unknown>): void {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const message = { ...payload, nonce: randomBytes(16).toString('base64url') };
    const sealed = Buffer.concat([cipher.update(JSON.stringify(message), 'utf8'), cipher.final()]);
    response.cookie(COOKIE, Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url'), {
      ...this.cookieOptions(),
      maxAge: 60_000,
    });
  }

  private cookieOptions() {
    return { httpOnly: true, sameSite: 'strict' as const, secure: this.config.publicBaseUrl.startsWith('https:'), path: '/' };
  }

  /** The flash of this request, if any, exactly once: it is gone afterwards, also for a client that replays the cookie. */
  async take(request: Request, response: Response): Promise<Record<string, unknown> | null> {
    const value = (request.cookies as Record<string, unknown> | undefined)?.[COOKIE];
    if (typeof value !== 'string') return null;
    response.clearCookie(COOKIE, this.cookieOptions());
    let message: Record<string, unknown>;
    try {
      const bytes = Buffer.from(value, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      message = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as Record<
        string,
        unknown
      >;
    } catch {
      return null;
    }
    const { nonce, ...payload } = message;
    const now = new Date();
    if (typeof nonce !== 'string' || !(await this.receipts.consume(nonce, now.toISOString()))) return null;
    await this.receipts.forgetBefore(new Date(now.getTime() - RECEIPT_RETENTION_MS).toISOString());
    return payload;
  }
}
