import type { Response } from 'supertest';
import { bearer, registerMerchant, uniqueEmail } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** Merchant accounts and sessions: API.md §2.6 and §3 (and the login limit of §4). */

const PASSWORD = 'correct horse battery';
const HOUR_MS = 3_600_000;

function expectError(response: Response, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expect(response.body.success).toBe(false);
  expect(response.body.data).toBeNull();
  expect(typeof response.body.error.message).toBe('string');
  expect(response.body.error.message.length).toBeGreaterThan(0);
}

function expectValidationDetail(response: Response, field: string): void {
  expectError(response, 400, 'VALIDATION_ERROR');
  expect(response.body.error.details).toContainEqual({ field, message: expect.any(String) });
}

describe('Merchant accounts — /v1/auth (API.md §3)', () => {
  let app: TestApp;
  const register = (body: Record<string, unknown>) => app.http().post('/v1/auth/register').send(body);
  const login = (body: Record<string, unknown>) => app.http().post('/v1/auth/login').send(body);
  const me = (token: string) => app.http().get('/v1/auth/me').set(bearer(token));

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  describe('POST /v1/auth/register', () => {
    it('returns 201 with merchant, store, a 168 h session and a working default sandbox key', async () => {
      const email = uniqueEmail('reg');
      const before = Date.now();
      const response = await register({ name: 'Maria Silva', email, password: PASSWORD, storeName: 'Loja da Maria' });
      const after = Date.now();

      expect(response.status).toBe(201);
      expect(response.body.success).toBe(true);
      expect(response.body.error).toBeNull();
      const data = response.body.data;
      expect(Object.keys(data).sort()).toEqual(['apiKey', 'merchant', 'session', 'store']);
      expect(data.merchant).toEqual({
        id: expect.stringMatching(/^mrc_/),
        name: 'Maria Silva',
        email,
        createdAt: expect.any(String),
      });
      expect(new Date(data.merchant.createdAt).toISOString()).toBe(data.merchant.createdAt);
      expect(data.store).toEqual({ id: expect.stringMatching(/^store_/), name: 'Loja da Maria', createdAt: expect.any(String) });

      expect(data.session.token).toMatch(/^sess_[A-Za-z0-9]{20,}$/);
      const expiresAt = Date.parse(data.session.expiresAt);
      expect(new Date(expiresAt).toISOString()).toBe(data.session.expiresAt);
      expect(expiresAt).toBeGreaterThanOrEqual(before + 168 * HOUR_MS - 1000);
      expect(expiresAt).toBeLessThanOrEqual(after + 168 * HOUR_MS + 1000);

      expect(data.apiKey).toEqual({
        id: expect.stringMatching(/^key_/),
        name: expect.any(String),
        mode: 'test',
        permissions: ['*'],
        prefix: expect.stringMatching(/^sk_test_[A-Za-z0-9]{4}$/),
        last4: expect.stringMatching(/^[A-Za-z0-9]{4}$/),
        createdAt: expect.any(String),
        lastUsedAt: null,
        expiresAt: null,
        revokedAt: null,
        key: expect.stringMatching(/^sk_test_[A-Za-z0-9]{20,}$/),
      });
      expect(data.apiKey.key.startsWith(data.apiKey.prefix)).toBe(true);
      expect(data.apiKey.key.endsWith(data.apiKey.last4)).toBe(true);

      // The key reaches the new store, not the default merchant's.
      const stores = await app.http().get('/v1/stores/list').set(bearer(data.apiKey.key));
      expect(stores.status).toBe(200);
      expect(stores.body.success).toBe(true);
      expect(stores.body.data.items.map((store: { id: string }) => store.id)).toEqual([data.store.id]);

      // The session is a working session of this merchant.
      const who = await me(data.session.token);
      expect(who.status).toBe(200);
      expect(who.body.data.merchant.id).toBe(data.merchant.id);

      // Nothing about the password travels back.
      expect(JSON.stringify(response.body)).not.toMatch(/password|scrypt|hash/i);
      expect(JSON.stringify(response.body)).not.toContain(PASSWORD);
    });

    it('names the store after the merchant when storeName is omitted', async () => {
      const response = await register({ name: 'João', email: uniqueEmail('nostore'), password: PASSWORD });
      expect(response.status).toBe(201);
      expect(typeof response.body.data.store.name).toBe('string');
      expect(response.body.data.store.name).toContain('João');
    });

    it('accepts a password of exactly 10 characters', async () => {
      const response = await register({ name: 'Ten', email: uniqueEmail('ten'), password: '0123456789' });
      expect(response.status).toBe(201);
      expect(response.body.success).toBe(true);
    });

    it('answers a duplicate email with 409 CONFLICT, also when it differs only in case', async () => {
      const email = uniqueEmail('dup');
      expect((await register({ name: 'First', email, password: PASSWORD })).status).toBe(201);

      const exact = await register({ name: 'Second', email, password: PASSWORD });
      expectError(exact, 409, 'CONFLICT');

      const shouted = await register({ name: 'Third', email: email.toUpperCase(), password: PASSWORD });
      expectError(shouted, 409, 'CONFLICT');

      const padded = await register({ name: 'Fourth', email: `  ${email.replace(/^./, (c) => c.toUpperCase())} `, password: PASSWORD });
      expectError(padded, 409, 'CONFLICT');

      const rows = await app.database.db
        .selectFrom('merchants')
        .select(['name', 'email'])
        .where((eb) => eb.fn('lower', ['email']), '=', email.toLowerCase())
        .execute();
      expect(rows).toEqual([{ name: 'First', email }]);
    });

    it('lets exactly one of several concurrent registrations of one email through', async () => {
      const email = uniqueEmail('race');
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          register({ name: `Racer ${index}`, email: index % 2 === 0 ? email : email.toUpperCase(), password: PASSWORD }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
      for (const response of responses.filter((r) => r.status === 409)) expectError(response, 409, 'CONFLICT');
      const winner = responses.find((response) => response.status === 201)!;
      const merchants = await app.database.db.selectFrom('merchants').select('id').where('email', '=', email).execute();
      expect(merchants).toEqual([{ id: winner.body.data.merchant.id }]);
      // The losers left nothing behind: one store and one key for the one merchant.
      const keys = await app.database.db
        .selectFrom('api_keys')
        .innerJoin('merchants', 'merchants.id', 'api_keys.merchant_id')
        .select('api_keys.id')
        .where('merchants.email', '=', email)
        .execute();
      expect(keys).toHaveLength(1);
    });

    it('treats the email case-insensitively at login too', async () => {
      const email = uniqueEmail('case');
      expect((await register({ name: 'Case', email: email.toUpperCase(), password: PASSWORD })).status).toBe(201);
      const response = await login({ email, password: PASSWORD });
      expect(response.status).toBe(200);
      expect(response.body.data.session.token).toMatch(/^sess_/);
    });

    it('rejects a password shorter than 10 characters', async () => {
      const response = await register({ name: 'Short', email: uniqueEmail('short'), password: '123456789' });
      expectValidationDetail(response, 'password');
    });

    it('rejects a malformed email', async () => {
      for (const email of ['not-an-email', 'a@', '@example.com', 'two@@example.com', 42]) {
        const response = await register({ name: 'Bad email', email, password: PASSWORD });
        expectValidationDetail(response, 'email');
      }
    });

    it('lists every missing field', async () => {
      const response = await register({});
      expectError(response, 400, 'VALIDATION_ERROR');
      const fields = (response.body.error.details as { field: string }[]).map((detail) => detail.field);
      expect(fields).toEqual(expect.arrayContaining(['name', 'email', 'password']));

      const noName = await register({ email: uniqueEmail('noname'), password: PASSWORD });
      expectValidationDetail(noName, 'name');
      const noPassword = await register({ name: 'X', email: uniqueEmail('nopass') });
      expectValidationDetail(noPassword, 'password');
    });

    it('rejects unknown fields instead of storing or ignoring them', async () => {
      const email = uniqueEmail('unknown');
      const response = await register({ name: 'Extra', email, password: PASSWORD, role: 'admin' });
      expectValidationDetail(response, 'role');
      const stored = await app.database.db.selectFrom('merchants').select('id').where('email', '=', email).execute();
      expect(stored).toEqual([]);
    });

    it('stores the password as a scrypt PHC string and the session token only hashed', async () => {
      const email = uniqueEmail('storage');
      const password = 'a very distinctive passphrase';
      const response = await register({ name: 'Storage', email, password });
      expect(response.status).toBe(201);
      const { merchant, session, apiKey } = response.body.data;

      const row = await app.database.db
        .selectFrom('merchants')
        .select('password_hash')
        .where('id', '=', merchant.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$scrypt\$/);
      expect(row.password_hash).not.toContain(password);
      expect(row.password_hash).not.toContain(Buffer.from(password).toString('base64'));

      const sessions = await app.database.db
        .selectFrom('sessions')
        .select(['token_hash'])
        .where('merchant_id', '=', merchant.id)
        .execute();
      expect(sessions).toHaveLength(1);
      expect(sessions[0].token_hash).not.toBe(session.token);
      expect(sessions[0].token_hash).not.toContain(session.token.slice('sess_'.length));

      const keys = await app.database.db.selectFrom('api_keys').select('key_hash').where('merchant_id', '=', merchant.id).execute();
      expect(keys).toHaveLength(1);
      expect(keys[0].key_hash).not.toBe(apiKey.key);
      expect(keys[0].key_hash).not.toContain(apiKey.key.slice('sk_test_'.length));
    });
  });

  describe('POST /v1/auth/login', () => {
    it('returns the merchant and a new working session', async () => {
      const merchant = await registerMerchant(app);
      const before = Date.now();
      const response = await login({ email: merchant.email, password: merchant.password });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body.error).toBeNull();
      expect(Object.keys(response.body.data).sort()).toEqual(['merchant', 'session']);
      expect(response.body.data.merchant).toEqual({
        id: merchant.merchantId,
        name: 'Loja Teste',
        email: merchant.email,
        createdAt: expect.any(String),
      });
      const { token, expiresAt } = response.body.data.session;
      expect(token).toMatch(/^sess_/);
      expect(token).not.toBe(merchant.session);
      expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(before + 168 * HOUR_MS - 1000);
      expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + 168 * HOUR_MS + 1000);

      const who = await me(token);
      expect(who.status).toBe(200);
      expect(who.body.data.merchant.id).toBe(merchant.merchantId);
      expect(who.body.data.store.id).toBe(merchant.storeId);
      // Logging in again does not end the earlier session.
      expect((await me(merchant.session)).status).toBe(200);
    });

    it('answers a wrong password and an unknown email identically with 401 INVALID_CREDENTIALS', async () => {
      const merchant = await registerMerchant(app);
      const wrongPassword = await login({ email: merchant.email, password: 'not the password at all' });
      const unknownEmail = await login({ email: uniqueEmail('nobody'), password: merchant.password });
      expectError(wrongPassword, 401, 'INVALID_CREDENTIALS');
      expectError(unknownEmail, 401, 'INVALID_CREDENTIALS');
      expect(wrongPassword.body.error.message).toBe(unknownEmail.body.error.message);
      expect(wrongPassword.body).toEqual(unknownEmail.body);
      expect(JSON.stringify(wrongPassword.body)).not.toContain(merchant.email);
    });

    it('does not let the password-less default merchant log in', async () => {
      const response = await login({ email: 'default@merchant.local', password: 'anything at all' });
      expectError(response, 401, 'INVALID_CREDENTIALS');
    });

    it('validates the body', async () => {
      expectValidationDetail(await login({ email: uniqueEmail() }), 'password');
      expectValidationDetail(await login({ password: PASSWORD }), 'email');
      expectValidationDetail(await login({ email: uniqueEmail(), password: PASSWORD, remember: true }), 'remember');
    });

    it('is not limited when RATE_LIMIT_DISABLED=1 (the test default)', async () => {
      const merchant = await registerMerchant(app);
      for (let attempt = 0; attempt < 12; attempt += 1) {
        expectError(await login({ email: merchant.email, password: 'wrong password!' }), 401, 'INVALID_CREDENTIALS');
      }
      const response = await login({ email: merchant.email, password: merchant.password });
      expect(response.status).toBe(200);
    });
  });

  describe('POST /v1/auth/logout', () => {
    it('ends the session at once and only that session', async () => {
      const merchant = await registerMerchant(app);
      const other = await login({ email: merchant.email, password: merchant.password });
      expect(other.status).toBe(200);
      expect((await me(merchant.session)).status).toBe(200);

      const response = await app.http().post('/v1/auth/logout').set(bearer(merchant.session));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { loggedOut: true }, success: true, error: null });

      expectError(await me(merchant.session), 401, 'UNAUTHENTICATED');
      expectError(await app.http().post('/v1/auth/logout').set(bearer(merchant.session)), 401, 'UNAUTHENTICATED');
      expectError(
        await app.http().get('/v1/api-keys/list').set(bearer(merchant.session)),
        401,
        'UNAUTHENTICATED',
      );
      expect((await me(other.body.data.session.token)).status).toBe(200);
    });

    it('needs a session', async () => {
      expectError(await app.http().post('/v1/auth/logout'), 401, 'UNAUTHENTICATED');
      const merchant = await registerMerchant(app);
      expectError(await app.http().post('/v1/auth/logout').set(bearer(merchant.testKey)), 401, 'UNAUTHENTICATED');
      // The key did not log the merchant out.
      expect((await me(merchant.session)).status).toBe(200);
    });
  });

  describe('GET /v1/auth/me', () => {
    it('returns {merchant, store} and never a password hash', async () => {
      const merchant = await registerMerchant(app, 'Padaria Central');
      const response = await me(merchant.session);
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body.error).toBeNull();
      expect(response.body.data).toEqual({
        merchant: { id: merchant.merchantId, name: 'Padaria Central', email: merchant.email, createdAt: expect.any(String) },
        store: { id: merchant.storeId, name: expect.any(String), createdAt: expect.any(String) },
      });
      expect(JSON.stringify(response.body)).not.toMatch(/password|scrypt|hash/i);
    });

    it('accepts the session as the `sess` cookie', async () => {
      const merchant = await registerMerchant(app);
      const response = await app.http().get('/v1/auth/me').set('Cookie', `sess=${merchant.session}`);
      expect(response.status).toBe(200);
      expect(response.body.data.merchant.id).toBe(merchant.merchantId);

      const bogus = await app.http().get('/v1/auth/me').set('Cookie', 'sess=sess_notarealsession');
      expectError(bogus, 401, 'UNAUTHENTICATED');
    });

    it('refuses an expired session', async () => {
      const merchant = await registerMerchant(app);
      expect((await me(merchant.session)).status).toBe(200);
      await app.database.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('merchant_id', '=', merchant.merchantId)
        .execute();
      expectError(await me(merchant.session), 401, 'UNAUTHENTICATED');
      expectError(await app.http().get('/v1/auth/me').set('Cookie', `sess=${merchant.session}`), 401, 'UNAUTHENTICATED');
    });

    it('refuses an API key, a missing credential and garbage', async () => {
      const merchant = await registerMerchant(app);
      expectError(await me(merchant.testKey), 401, 'UNAUTHENTICATED');
      expectError(await me(app.defaultKey), 401, 'UNAUTHENTICATED');
      expectError(await app.http().get('/v1/auth/me'), 401, 'UNAUTHENTICATED');
      expectError(await me('sess_doesnotexist0000000000000000000000000000'), 401, 'UNAUTHENTICATED');
      expectError(await app.http().get('/v1/auth/me').set('Authorization', merchant.session), 401, 'UNAUTHENTICATED');
    });
  });

  describe('sessions on API resource routes (API.md §2.6)', () => {
    it('refuses a session on GET /v1/stores/list and GET /v1/fees/calculate', async () => {
      const merchant = await registerMerchant(app);
      expectError(await app.http().get('/v1/stores/list').set(bearer(merchant.session)), 401, 'UNAUTHENTICATED');
      expectError(
        await app.http().get('/v1/fees/calculate?amount=1000&method=PIX').set(bearer(merchant.session)),
        401,
        'UNAUTHENTICATED',
      );
      expectError(await app.http().get('/v1/stores/list').set('Cookie', `sess=${merchant.session}`), 401, 'UNAUTHENTICATED');
      // The same routes work with the merchant's key, so the 401 is about the credential kind.
      expect((await app.http().get('/v1/stores/list').set(bearer(merchant.testKey))).status).toBe(200);
      expect((await app.http().get('/v1/fees/calculate?amount=1000&method=PIX').set(bearer(merchant.testKey))).status).toBe(200);
    });
  });
});

describe('Session lifetime (API.md §2.6)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { SESSION_TTL_HOURS: '2' } });
  });
  afterAll(() => app.close());

  it('follows SESSION_TTL_HOURS for register and login', async () => {
    const before = Date.now();
    const merchant = await registerMerchant(app);
    const session = await app.database.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('merchant_id', '=', merchant.merchantId)
      .executeTakeFirstOrThrow();
    expect(Date.parse(session.expires_at)).toBeGreaterThanOrEqual(before + 2 * HOUR_MS - 1000);
    expect(Date.parse(session.expires_at)).toBeLessThanOrEqual(Date.now() + 2 * HOUR_MS + 1000);

    const response = await app.http().post('/v1/auth/login').send({ email: merchant.email, password: merchant.password });
    expect(response.status).toBe(200);
    const expiresAt = Date.parse(response.body.data.session.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 2 * HOUR_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 2 * HOUR_MS + 1000);
  });
});

describe('Login rate limit (API.md §3, §4)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_DISABLED: '0' } });
  });
  afterAll(() => app.close());

  it('answers the 11th attempt for one email with 429 RATE_LIMITED and Retry-After, even with the right password', async () => {
    const merchant = await registerMerchant(app);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const response = await app.http().post('/v1/auth/login').send({ email: merchant.email, password: 'wrong password!' });
      expectError(response, 401, 'INVALID_CREDENTIALS');
    }
    const blocked = await app.http().post('/v1/auth/login').send({ email: merchant.email, password: merchant.password });
    expectError(blocked, 429, 'RATE_LIMITED');
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(blocked.body.data).toBeNull();
    expect(JSON.stringify(blocked.body)).not.toContain('sess_');

    // Another differently-cased spelling of the same email is the same counter.
    const shouted = await app.http().post('/v1/auth/login').send({ email: merchant.email.toUpperCase(), password: merchant.password });
    expectError(shouted, 429, 'RATE_LIMITED');

    // The existing session is unaffected: the limit is on logins only.
    expect((await app.http().get('/v1/auth/me').set(bearer(merchant.session))).status).toBe(200);
  });
});

describe('Login rate limit per email behind a trusted proxy (API.md §3)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_DISABLED: '0', TRUST_PROXY: '1' } });
  });
  afterAll(() => app.close());

  const loginFrom = (ip: string, body: Record<string, unknown>) =>
    app.http().post('/v1/auth/login').set('X-Forwarded-For', ip).send(body);

  it('counts attempts per email across client addresses, and other emails are not blocked by it', async () => {
    const victim = await registerMerchant(app);
    const bystander = await registerMerchant(app);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expectError(await loginFrom(`198.51.100.${attempt}`, { email: victim.email, password: 'wrong password!' }), 401, 'INVALID_CREDENTIALS');
    }
    const blocked = await loginFrom('198.51.100.77', { email: victim.email, password: victim.password });
    expectError(blocked, 429, 'RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    const other = await loginFrom('198.51.100.78', { email: bystander.email, password: bystander.password });
    expect(other.status).toBe(200);
    expect(other.body.data.session.token).toMatch(/^sess_/);
  });

  it('counts attempts per client address across emails', async () => {
    const merchant = await registerMerchant(app);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expectError(await loginFrom('203.0.113.9', { email: uniqueEmail('spray'), password: 'wrong password!' }), 401, 'INVALID_CREDENTIALS');
    }
    expectError(await loginFrom('203.0.113.9', { email: merchant.email, password: merchant.password }), 429, 'RATE_LIMITED');
    expect((await loginFrom('203.0.113.10', { email: merchant.email, password: merchant.password })).status).toBe(200);
  });
});
