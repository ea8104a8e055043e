import { randomBytes } from 'node:crypto';
import type { TestApp } from './test-app';

export interface RegisteredMerchant {
  merchantId: string;
  storeId: string;
  email: string;
  password: string;
  session: string;
  testKey: string;
}

export const uniqueEmail = (label = 'merchant') => `${label}-${randomBytes(5).toString('hex')}@example.com`;

/** Registers a merchant through the API and returns its session and default sandbox key. */
export async function registerMerchant(app: TestApp, name = 'Loja Teste'): Promise<RegisteredMerchant> {
  const email = uniqueEmail();
  const password = 'correct horse battery';
  const response = await app.http().post('/v1/auth/register').send({ name, email, password }).expect(201);
  const data = response.body.data;
  return {
    merchantId: data.merchant.id,
    storeId: data.store.id,
    email,
    password,
    session: data.session.token,
    testKey: data.apiKey.key,
  };
}

/** Creates an API key with a session and returns its full value. */
export async function createKey(
  app: TestApp,
  session: string,
  body: { name?: string; mode?: 'test' | 'live'; permissions: string[]; expiresAt?: string },
): Promise<{ id: string; key: string }> {
  const response = await app
    .http()
    .post('/v1/api-keys/create')
    .set('Authorization', `Bearer ${session}`)
    .send({ name: body.name ?? 'test key', ...body })
    .expect(201);
  return { id: response.body.data.id, key: response.body.data.key };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
