import type { Response } from 'express';
import type { AppConfig } from '../../config/app-config';

export const SESSION_COOKIE = 'sess';

/** The dashboard session cookie (API.md §14): HttpOnly, SameSite=Lax, Secure when served over https. */
const cookieOptions = (config: AppConfig) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: config.publicBaseUrl.startsWith('https:'),
  path: '/',
});

export function setSessionCookie(response: Response, config: AppConfig, token: string, expiresAt: string): void {
  response.cookie(SESSION_COOKIE, token, { ...cookieOptions(config), expires: new Date(expiresAt) });
}

export function clearSessionCookie(response: Response, config: AppConfig): void {
  response.clearCookie(SESSION_COOKIE, cookieOptions(config));
}
