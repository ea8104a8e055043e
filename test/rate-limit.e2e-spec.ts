import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { bearer } from './support/factories';
import { createTestDatabase, startTestApp, TestApp, TestDatabase } from './support/test-app';

/**
 * API.md §4. Runs on the in-memory counters (e2e-sqlite, e2e-postgres) and again with the counters in
 * Redis (e2e-redis). Every limited app shares one database with an unlimited "admin" app, which creates
 * the keys: that way setting up a test never spends a request of the bucket under test.
 */
const onRedis = process.env.E2E_RATE_LIMIT_STORE === 'redis';
// Apps boot and windows pass: more than Jest's default 5 s under a loaded machine.
jest.setTimeout(60_000);

const LIMITED = { RATE_LIMIT_DISABLED: '0', RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unknownKey = () => `sk_test_${randomBytes(20).toString('hex')}`;

/** The three X-RateLimit-* headers as numbers, checked to be whole numbers first. */
function limitHeaders(response: Response) {
  const raw = {
    limit: response.headers['x-ratelimit-limit'],
    remaining: response.headers['x-ratelimit-remaining'],
    reset: response.headers['x-ratelimit-reset'],
  };
  for (const value of Object.values(raw)) expect(value).toMatch(/^\d+$/);
  return { limit: Number(raw.limit), remaining: Number(raw.remaining), reset: Number(raw.reset) };
}

/** A counted response inside the limit: the exact Limit and Remaining, Reset within 1..windowSeconds. */
function expectCounted(response: Response, limit: number, remaining: number, windowSeconds: number) {
  const headers = limitHeaders(response);
  expect(headers.limit).toBe(limit);
  expect(headers.remaining).toBe(remaining);
  expect(headers.reset).toBeGreaterThanOrEqual(1);
  expect(headers.reset).toBeLessThanOrEqual(windowSeconds);
  expect(response.headers['retry-after']).toBeUndefined();
}

/** The answer over the limit: 429 RATE_LIMITED in the envelope, the three headers, Retry-After ≥ 1. */
function expectLimited(response: Response, limit: number, windowSeconds: number) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({
    data: null,
    success: false,
    error: { code: 'RATE_LIMITED', message: expect.any(String) },
  });
  const headers = limitHeaders(response);
  expect(headers.limit).toBe(limit);
  expect(headers.remaining).toBe(0);
  expect(headers.reset).toBeGreaterThanOrEqual(1);
  expect(headers.reset).toBeLessThanOrEqual(windowSeconds);
  expect(response.headers['retry-after']).toMatch(/^\d+$/);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  return retryAfter;
}

function expectNoLimitHeaders(response: Response) {
  expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
  expect(response.headers['x-ratelimit-reset']).toBeUndefined();
  expect(response.headers['retry-after']).toBeUndefined();
}

describe(`Rate limiting (API.md §4) — counters in ${onRedis ? 'Redis' : 'memory'}`, () => {
  let database: TestDatabase;
  let admin: TestApp;
  const started: TestApp[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = await startTestApp({ database });
  });

  afterEach(async () => {
    while (started.length > 0) await started.pop()!.close();
  });

  afterAll(async () => {
    await admin?.close();
    await database?.drop();
  });

  /** An app on the shared database with the rate limit on; closed after the test. */
  async function limitedApp(env: Record<string, string | undefined> = LIMITED): Promise<TestApp> {
    const app = await startTestApp({ database, env: { DEFAULT_API_KEY: admin.defaultKey, ...env } });
    started.push(app);
    return app;
  }

  /** A fresh `*` sandbox key, created through the unlimited admin app. */
  async function newKey(): Promise<string> {
    const response = await admin
      .http()
      .post('/v1/api-keys/create')
      .set(bearer(admin.defaultKey))
      .send({ name: `rl ${randomBytes(3).toString('hex')}`, permissions: ['*'] })
      .expect(201);
    return response.body.data.key as string;
  }

  it('puts X-RateLimit-Limit, -Remaining (falling by one) and -Reset on every counted response', async () => {
    const app = await limitedApp();
    const key = await newKey();
    for (let remaining = 4; remaining >= 0; remaining -= 1) {
      const response = await app.http().get('/v1/stores/list').set(bearer(key));
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expectCounted(response, 5, remaining, 60);
    }
  });

  it('answers every request over the limit with 429 RATE_LIMITED, the three headers and Retry-After', async () => {
    const app = await limitedApp();
    const key = await newKey();
    for (let i = 0; i < 5; i += 1) await app.http().get('/v1/stores/list').set(bearer(key)).expect(200);
    for (let i = 0; i < 3; i += 1) {
      const response = await app.http().get('/v1/stores/list').set(bearer(key));
      expectLimited(response, 5, 60);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.headers['x-request-id']).toMatch(/^req_/);
    }
  });

  it('keeps one bucket per key across all routes together', async () => {
    const app = await limitedApp();
    const key = await newKey();
    const calls = [
      () => app.http().get('/v1/stores/list').set(bearer(key)),
      () => app.http().get('/v1/fees/calculate?amount=1000&method=PIX').set(bearer(key)),
      () => app.http().get('/v1/api-keys/list').set(bearer(key)),
    ];
    for (let n = 0; n < 5; n += 1) {
      const response = await calls[n % 3]();
      expect(response.status).toBe(200);
      expectCounted(response, 5, 4 - n, 60);
    }
    for (const call of calls) expectLimited(await call(), 5, 60);
    // A POST route shares the same bucket: limited before its body is even validated.
    expectLimited(await app.http().post('/v1/api-keys/create').set(bearer(key)).send({}), 5, 60);
  });

  it('limits an unknown key too: 429 where it would otherwise be 401', async () => {
    const app = await limitedApp();
    const bad = unknownKey();
    for (let remaining = 4; remaining >= 0; remaining -= 1) {
      const response = await app.http().get('/v1/stores/list').set(bearer(bad));
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('UNAUTHENTICATED');
      expectCounted(response, 5, remaining, 60);
    }
    expectLimited(await app.http().get('/v1/stores/list').set(bearer(bad)), 5, 60);
    expectLimited(await app.http().get('/v1/fees/calculate?amount=1000&method=PIX').set(bearer(bad)), 5, 60);
  });

  it('counts invented keys in the client IP bucket: rotating bad keys buys no fresh buckets', async () => {
    const app = await limitedApp();
    for (let remaining = 4; remaining >= 0; remaining -= 1) {
      const response = await app.http().get('/v1/stores/list').set(bearer(unknownKey()));
      expect(response.status).toBe(401);
      expectCounted(response, 5, remaining, 60);
    }
    expectLimited(await app.http().get('/v1/stores/list').set(bearer(unknownKey())), 5, 60);
    // The same IP without any key is in that bucket too, while a valid key still has its own.
    expectLimited(await app.http().get('/v1/stores/list'), 5, 60);
    const valid = await newKey();
    expectCounted(await app.http().get('/v1/stores/list').set(bearer(valid)), 5, 4, 60);
  });

  it('limits a malformed credential (not an API key at all) in the client IP bucket', async () => {
    const app = await limitedApp();
    for (let remaining = 4; remaining >= 0; remaining -= 1) {
      const response = await app.http().get('/v1/stores/list').set('Authorization', 'Bearer not-a-key');
      expect(response.status).toBe(401);
      expectCounted(response, 5, remaining, 60);
    }
    expectLimited(await app.http().get('/v1/stores/list').set('Authorization', 'Bearer not-a-key'), 5, 60);
  });

  it('counts requests whose body cannot be read, in the bucket of their key', async () => {
    const app = await limitedApp();
    const key = await newKey();
    for (let remaining = 4; remaining >= 0; remaining -= 1) {
      const response = await app
        .http()
        .post('/v1/api-keys/create')
        .set(bearer(key))
        .set('Content-Type', 'application/json')
        .send('{"name": "k",');
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expectCounted(response, 5, remaining, 60);
    }
    expectLimited(await app.http().post('/v1/api-keys/create').set(bearer(key)).send({ name: 'k', permissions: ['*'] }), 5, 60);
  });

  it('gives two keys independent buckets', async () => {
    const app = await limitedApp();
    const first = await newKey();
    const second = await newKey();
    for (let i = 0; i < 5; i += 1) await app.http().get('/v1/stores/list').set(bearer(first)).expect(200);
    expectLimited(await app.http().get('/v1/stores/list').set(bearer(first)), 5, 60);

    const other = await app.http().get('/v1/stores/list').set(bearer(second));
    expect(other.status).toBe(200);
    expectCounted(other, 5, 4, 60);
    expectLimited(await app.http().get('/v1/stores/list').set(bearer(first)), 5, 60);
    const again = await app.http().get('/v1/fees/calculate?amount=1000&method=PIX').set(bearer(second));
    expect(again.status).toBe(200);
    expectCounted(again, 5, 3, 60);
  });

  it('counts requests without a key per client IP, across routes, apart from the key buckets', async () => {
    const app = await limitedApp();
    const key = await newKey();
    const anonymous = [
      () => app.http().post('/v1/auth/login').send({ email: 'nobody@example.com', password: 'wrong password 1' }),
      () => app.http().get('/v1/does-not-exist'),
      () => app.http().get('/v1/stores/list'),
    ];
    const expectedStatus = [401, 404, 401];
    for (let n = 0; n < 5; n += 1) {
      const response = await anonymous[n % 3]();
      expect(response.status).toBe(expectedStatus[n % 3]);
      expectCounted(response, 5, 4 - n, 60);
    }
    for (const call of anonymous) expectLimited(await call(), 5, 60);

    // The IP's bucket is spent; a request that sends a key is counted in the key's own bucket.
    const withKey = await app.http().get('/v1/stores/list').set(bearer(key));
    expect(withKey.status).toBe(200);
    expectCounted(withKey, 5, 4, 60);
  });

  it('never counts GET /health and GET /ready and puts no X-RateLimit headers on them', async () => {
    const app = await limitedApp();
    for (let i = 0; i < 8; i += 1) {
      const health = await app.http().get('/health');
      expect(health.status).toBe(200);
      expectNoLimitHeaders(health);
      const ready = await app.http().get('/ready');
      expect(ready.status).toBe(200);
      expectNoLimitHeaders(ready);
    }
    // Sixteen probes from this IP later, its bucket is untouched.
    const first = await app.http().get('/v1/does-not-exist');
    expect(first.status).toBe(404);
    expectCounted(first, 5, 4, 60);
  });

  it('lets the key call again once the window has passed', async () => {
    const app = await limitedApp({ ...LIMITED, RATE_LIMIT_WINDOW_MS: '1500' });
    const key = await newKey();
    for (let remaining = 4; remaining >= 0; remaining -= 1) {
      expectCounted(await app.http().get('/v1/stores/list').set(bearer(key)).expect(200), 5, remaining, 2);
    }
    const limited = await app.http().get('/v1/stores/list').set(bearer(key));
    const retryAfter = expectLimited(limited, 5, 2);

    await sleep(retryAfter * 1000 + 250);
    const again = await app.http().get('/v1/stores/list').set(bearer(key));
    expect(again.status).toBe(200);
    expectCounted(again, 5, 4, 2);
  });

  it('counts concurrent requests exactly: max succeed, the rest get 429', async () => {
    const app = await limitedApp();
    const key = await newKey();
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => app.http().get('/v1/fees/calculate?amount=1000&method=PIX').set(bearer(key))),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(7);
    const remaining = responses.filter((r) => r.status === 200).map((r) => limitHeaders(r).remaining);
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4]);
    for (const response of responses.filter((r) => r.status === 429)) expectLimited(response, 5, 60);
  });

  it('turns everything off with RATE_LIMIT_DISABLED=1: no headers and no 429, login limit included', async () => {
    const app = await limitedApp({ RATE_LIMIT_DISABLED: '1', RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000' });
    const key = await newKey();
    const bad = unknownKey();
    for (let i = 0; i < 12; i += 1) {
      const ok = await app.http().get('/v1/stores/list').set(bearer(key));
      expect(ok.status).toBe(200);
      expectNoLimitHeaders(ok);
      const unauthenticated = await app.http().get('/v1/stores/list').set(bearer(bad));
      expect(unauthenticated.status).toBe(401);
      expectNoLimitHeaders(unauthenticated);
      // Twelve failed logins for one email and one IP: over the login limit of §3 (10), never 429.
      const login = await app.http().post('/v1/auth/login').send({ email: 'victim@example.com', password: 'guess number ' + i });
      expect(login.status).toBe(401);
      expect(login.body.error.code).toBe('INVALID_CREDENTIALS');
      expectNoLimitHeaders(login);
    }
  });

  it('honours RATE_LIMIT_MAX and RATE_LIMIT_WINDOW_MS', async () => {
    const app = await limitedApp({ RATE_LIMIT_DISABLED: '0', RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '10000' });
    const key = await newKey();
    for (let remaining = 2; remaining >= 0; remaining -= 1) {
      expectCounted(await app.http().get('/v1/stores/list').set(bearer(key)).expect(200), 3, remaining, 10);
    }
    expectLimited(await app.http().get('/v1/stores/list').set(bearer(key)), 3, 10);
  });

  it('defaults to 120 requests per 60 s window', async () => {
    const app = await limitedApp({ RATE_LIMIT_DISABLED: '0' });
    const key = await newKey();
    const response = await app.http().get('/v1/stores/list').set(bearer(key)).expect(200);
    expectCounted(response, 120, 119, 60);
    expect(limitHeaders(response).reset).toBeGreaterThan(50);
  });

  (onRedis ? it : it.skip)('shares one counter between two instances through Redis', async () => {
    const shared = await createTestDatabase();
    const instances: TestApp[] = [];
    try {
      const env = { ...LIMITED };
      instances.push(await startTestApp({ database: shared, env }));
      instances.push(await startTestApp({ database: shared, env: { ...env, DEFAULT_API_KEY: instances[0].defaultKey } }));
      const [one, two] = instances;
      // Same deployment: same key prefix. The prefix is read per request, so setting it now is enough.
      two.config.rateLimit.keyPrefix = one.config.rateLimit.keyPrefix;
      const key = one.defaultKey;

      for (let n = 0; n < 5; n += 1) {
        const instance = n % 2 === 0 ? one : two;
        const response = await instance.http().get('/v1/stores/list').set(bearer(key));
        expect(response.status).toBe(200);
        expectCounted(response, 5, 4 - n, 60);
      }
      expectLimited(await two.http().get('/v1/stores/list').set(bearer(key)), 5, 60);
      expectLimited(await one.http().get('/v1/stores/list').set(bearer(key)), 5, 60);
    } finally {
      for (const instance of instances.reverse()) await instance.close();
      await shared.drop();
    }
  });
});
