import type { Response } from 'supertest';
import { expectError, expectOk } from './support/assertions';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** API keys — API.md §2 and §5, with the list (§1.2) and idempotency (§1.3) conventions on this family. */

const KEY_OBJECT_FIELDS = ['createdAt', 'expiresAt', 'id', 'last4', 'lastUsedAt', 'mode', 'name', 'permissions', 'prefix', 'revokedAt'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = 'key_01JD2Z3M4N5P6Q7R8S9T0V1W2X';

interface KeyObject {
  id: string;
  name: string;
  mode: 'test' | 'live';
  permissions: string[];
  prefix: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  key?: string;
}

function expectValidationDetail(response: Response, field: string): void {
  expectError(response, 400, 'VALIDATION_ERROR');
  const fields = (response.body.error.details ?? []).map((detail: { field: string }) => detail.field);
  expect(fields).toContain(field);
}

describe('API keys — /v1/api-keys (API.md §5)', () => {
  let app: TestApp;
  let merchant: RegisteredMerchant;
  let rival: RegisteredMerchant;

  const http = () => app.http();
  const post = (token: string, route: string, body: unknown) => http().post(`/v1/api-keys/${route}`).set(bearer(token)).send(body as object);
  const get = (token: string, id: string) => http().get('/v1/api-keys/get').query({ id }).set(bearer(token));
  const list = (token: string, query: Record<string, string | number> = {}) =>
    http().get('/v1/api-keys/list').query(query).set(bearer(token));
  const storesWith = (token: string) => http().get('/v1/stores/list').set(bearer(token));
  const keyRow = (id: string) => app.database.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Every key of a store, following cursors: what a caller of `list` can see. */
  const listAll = async (token: string, query: Record<string, string> = {}): Promise<KeyObject[]> => {
    const items: KeyObject[] = [];
    let after: string | null = null;
    do {
      const response = await list(token, { ...query, limit: 100, ...(after ? { after } : {}) });
      expectOk(response);
      items.push(...response.body.data.items);
      after = response.body.data.next;
    } while (after !== null);
    return items;
  };

  beforeAll(async () => {
    app = await startTestApp();
    merchant = await registerMerchant(app, 'Loja A');
    rival = await registerMerchant(app, 'Loja B');
  });
  afterAll(() => app.close());

  describe('create', () => {
    it('returns 201 with the key object and the full key, shown this once', async () => {
      const before = Date.now();
      const response = await post(merchant.session, 'create', {
        name: 'Orders service',
        permissions: ['products:write', 'customers:read'],
      });
      expectOk(response, 201);
      const key: KeyObject = response.body.data;
      expect(Object.keys(key).sort()).toEqual([...KEY_OBJECT_FIELDS, 'key'].sort());
      expect(key).toEqual({
        id: expect.stringMatching(/^key_[0-9A-Z]+$/),
        name: 'Orders service',
        mode: 'test',
        permissions: expect.any(Array),
        prefix: expect.stringMatching(/^sk_test_[A-Za-z0-9]{4}$/),
        last4: expect.stringMatching(/^[A-Za-z0-9]{4}$/),
        createdAt: expect.stringMatching(ISO),
        lastUsedAt: null,
        expiresAt: null,
        revokedAt: null,
        key: expect.stringMatching(/^sk_test_[A-Za-z0-9]{20,}$/),
      });
      expect([...key.permissions].sort()).toEqual(['customers:read', 'products:write']);
      expect(key.key!.startsWith(key.prefix)).toBe(true);
      expect(key.key!.endsWith(key.last4)).toBe(true);
      expect(Date.parse(key.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(key.createdAt)).toBeLessThanOrEqual(Date.now() + 1000);

      // The new key authenticates (stores/list needs any valid key) and reaches the merchant's store.
      const stores = await storesWith(key.key!);
      expectOk(stores);
      expect(stores.body.data.items[0].id).toBe(merchant.storeId);
    });

    it('creates live keys with a session, and echoes expiresAt', async () => {
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
      const response = await post(merchant.session, 'create', { name: 'Live backend', mode: 'live', permissions: ['*'], expiresAt });
      expectOk(response, 201);
      expect(response.body.data).toMatchObject({ mode: 'live', permissions: ['*'], expiresAt });
      expect(response.body.data.key).toMatch(/^sk_live_/);
      expect(response.body.data.prefix).toMatch(/^sk_live_[A-Za-z0-9]{4}$/);
      expect(response.body.data.key.startsWith(response.body.data.prefix)).toBe(true);
      const stores = await storesWith(response.body.data.key);
      expectOk(stores);
      expect(stores.body.data.items[0].devMode).toBe(false);
    });

    it('is callable with a `*` sandbox key', async () => {
      const response = await post(merchant.testKey, 'create', { name: 'made by key', permissions: ['webhooks:read'] });
      expectOk(response, 201);
      expect(response.body.data).toMatchObject({ mode: 'test', permissions: ['webhooks:read'], name: 'made by key' });
    });

    it('stores only a hash of the key', async () => {
      const created = await createKey(app, merchant.session, { name: 'hash check', permissions: ['*'] });
      const row = await keyRow(created.id);
      expect(row.key_hash).not.toBe(created.key);
      const secretPart = created.key.slice('sk_test_'.length);
      for (const [column, value] of Object.entries(row)) {
        if (typeof value === 'string') expect({ column, contains: value.includes(secretPart) }).toEqual({ column, contains: false });
      }
    });

    it.each([
      ['an empty list', []],
      ['an unknown permission', ['customers:delete']],
      ['an unknown resource', ['orders:read']],
      ['"*" mixed with others', ['*', 'customers:read']],
      ['a number', [5]],
      ['null', [null]],
      ['an object', [{ resource: 'customers' }]],
      ['a string instead of a list', 'customers:read'],
      ['nothing', undefined],
    ])('rejects permissions as %s with 400 VALIDATION_ERROR on field permissions', async (_label, permissions) => {
      const name = `invalid-${Math.random()}`;
      const response = await post(merchant.session, 'create', { name, permissions });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.details[0].field).toMatch(/^permissions/);
      const rows = await app.database.db.selectFrom('api_keys').select('id').where('name', '=', name).execute();
      expect(rows).toEqual([]);
    });

    it('rejects an expiresAt in the past or not a date', async () => {
      expectValidationDetail(
        await post(merchant.session, 'create', { name: 'past', permissions: ['*'], expiresAt: new Date(Date.now() - 60_000).toISOString() }),
        'expiresAt',
      );
      expectValidationDetail(await post(merchant.session, 'create', { name: 'bad', permissions: ['*'], expiresAt: 'tomorrow' }), 'expiresAt');
    });

    it('rejects a missing name, a bad mode and unknown fields', async () => {
      expectValidationDetail(await post(merchant.session, 'create', { permissions: ['*'] }), 'name');
      expectValidationDetail(await post(merchant.session, 'create', { name: 'm', mode: 'prod', permissions: ['*'] }), 'mode');
      expectValidationDetail(await post(merchant.session, 'create', { name: 'u', permissions: ['*'], scope: 'all' }), 'scope');
    });
  });

  describe('list and get', () => {
    it('never show the full key or its hash', async () => {
      const created = await createKey(app, merchant.session, { name: 'secret keeper', permissions: ['customers:read'] });
      const hash = (await keyRow(created.id)).key_hash;

      const got = await get(merchant.session, created.id);
      expectOk(got);
      expect(Object.keys(got.body.data).sort()).toEqual(KEY_OBJECT_FIELDS);
      expect(got.body.data).toMatchObject({ id: created.id, name: 'secret keeper', permissions: ['customers:read'] });
      expect(JSON.stringify(got.body)).not.toContain(created.key);
      expect(JSON.stringify(got.body)).not.toContain(hash);

      const listed = await list(merchant.session, { limit: 100 });
      expectOk(listed);
      const items: KeyObject[] = listed.body.data.items;
      expect(items.map((item) => item.id)).toContain(created.id);
      for (const item of items) expect(Object.keys(item).sort()).toEqual(KEY_OBJECT_FIELDS);
      expect(JSON.stringify(listed.body)).not.toContain(created.key);
      expect(JSON.stringify(listed.body)).not.toContain(merchant.testKey);
      expect(JSON.stringify(listed.body)).not.toContain(hash);
    });

    it('answers an unknown id with 404 NOT_FOUND and a missing id with 400', async () => {
      expectError(await get(merchant.session, MISSING_ID), 404, 'NOT_FOUND');
      expectError(await get(merchant.session, 'not-even-an-id'), 404, 'NOT_FOUND');
      expectValidationDetail(await http().get('/v1/api-keys/get').set(bearer(merchant.session)), 'id');
    });

    it('needs credentials', async () => {
      expectError(await http().get('/v1/api-keys/list'), 401, 'UNAUTHENTICATED');
      expectError(await list('sk_test_unknownunknownunknownunknown'), 401, 'UNAUTHENTICATED');
      expectError(await list('sess_unknownunknownunknownunknown'), 401, 'UNAUTHENTICATED');
    });
  });

  describe('restricted keys', () => {
    it('get 403 FORBIDDEN on every api-keys route', async () => {
      const restricted = await createKey(app, merchant.session, { name: 'restricted', permissions: ['customers:read'] });
      const target = await createKey(app, merchant.session, { name: 'target', permissions: ['*'] });
      expectError(await post(restricted.key, 'create', { name: 'x', permissions: ['customers:read'] }), 403, 'FORBIDDEN');
      expectError(await list(restricted.key), 403, 'FORBIDDEN');
      expectError(await get(restricted.key, target.id), 403, 'FORBIDDEN');
      expectError(await post(restricted.key, 'update', { id: target.id, name: 'hijacked' }), 403, 'FORBIDDEN');
      expectError(await post(restricted.key, 'revoke', { id: target.id }), 403, 'FORBIDDEN');
      expectError(await post(restricted.key, 'roll', { id: target.id }), 403, 'FORBIDDEN');
      // Not even on its own id.
      expectError(await post(restricted.key, 'revoke', { id: restricted.id }), 403, 'FORBIDDEN');

      // Nothing happened to the target.
      const after = await get(merchant.session, target.id);
      expect(after.body.data).toMatchObject({ name: 'target', revokedAt: null, expiresAt: null });
      expectOk(await storesWith(target.key));
    });

    it('a key holding every permission but not "*" is still restricted', async () => {
      const resources = ['customers', 'products', 'checkouts', 'payment-links', 'transparents', 'coupons', 'subscriptions', 'webhooks', 'payouts', 'disputes'];
      const all = resources.flatMap((resource) => [`${resource}:read`, `${resource}:write`]);
      const everything = await createKey(app, merchant.session, { name: 'all but star', permissions: all });
      expectError(await list(everything.key), 403, 'FORBIDDEN');
    });
  });

  describe('modes', () => {
    let liveKey: { id: string; key: string };
    let liveStar: { id: string; key: string };

    beforeAll(async () => {
      liveKey = await createKey(app, merchant.session, { name: 'live restricted', mode: 'live', permissions: ['payouts:write'] });
      liveStar = await createKey(app, merchant.session, { name: 'live star', mode: 'live', permissions: ['*'] });
    });

    it('a `*` test key cannot create live keys', async () => {
      const response = await post(merchant.testKey, 'create', { name: 'sneaky', mode: 'live', permissions: ['*'] });
      expectError(response, 403, 'FORBIDDEN');
      const rows = await app.database.db.selectFrom('api_keys').select('id').where('name', '=', 'sneaky').execute();
      expect(rows).toEqual([]);
    });

    it('a `*` test key does not see live keys: 404 on their ids, absent from its list', async () => {
      expectError(await get(merchant.testKey, liveKey.id), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'update', { id: liveKey.id, name: 'renamed' }), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'revoke', { id: liveKey.id }), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'roll', { id: liveKey.id }), 404, 'NOT_FOUND');

      const items = await listAll(merchant.testKey);
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((item) => item.mode === 'test')).toBe(true);
      expect(items.map((item) => item.id)).toContain(await keyIdOf(merchant.testKey));
      expect(items.map((item) => item.id)).not.toContain(liveKey.id);

      const askedForLive = await list(merchant.testKey, { mode: 'live' });
      expectOk(askedForLive);
      expect(askedForLive.body.data.items.filter((item: KeyObject) => item.mode === 'live')).toEqual([]);

      // The live key is untouched and works.
      const still = await get(merchant.session, liveKey.id);
      expect(still.body.data).toMatchObject({ name: 'live restricted', revokedAt: null, expiresAt: null });
      expectOk(await storesWith(liveKey.key));
    });

    it('a `*` live key manages only live keys', async () => {
      expectError(await post(liveStar.key, 'create', { name: 'test from live', mode: 'test', permissions: ['*'] }), 403, 'FORBIDDEN');
      expectError(await get(liveStar.key, await keyIdOf(merchant.testKey)), 404, 'NOT_FOUND');
      const created = await post(liveStar.key, 'create', { name: 'live child', mode: 'live', permissions: ['customers:read'] });
      expectOk(created, 201);
      expect(created.body.data.key).toMatch(/^sk_live_/);
      const items = await listAll(liveStar.key);
      expect(items.every((item) => item.mode === 'live')).toBe(true);
      expect(items.map((item) => item.id)).toEqual(expect.arrayContaining([liveKey.id, liveStar.id, created.body.data.id]));
    });

    it('a session sees both modes and can filter with ?mode=', async () => {
      const all = await listAll(merchant.session);
      const modes = new Set(all.map((item) => item.mode));
      expect([...modes].sort()).toEqual(['live', 'test']);
      expect(all.map((item) => item.id)).toEqual(expect.arrayContaining([liveKey.id, await keyIdOf(merchant.testKey)]));

      const live = await listAll(merchant.session, { mode: 'live' });
      expect(live.length).toBeGreaterThan(0);
      expect(live.every((item) => item.mode === 'live')).toBe(true);
      expect(live.map((item) => item.id)).toContain(liveKey.id);

      const test = await listAll(merchant.session, { mode: 'test' });
      expect(test.every((item) => item.mode === 'test')).toBe(true);
      expect(test.length + live.length).toBe(all.length);

      expectValidationDetail(await list(merchant.session, { mode: 'prod' }), 'mode');
      expectOk(await get(merchant.session, liveKey.id));
    });
  });

  describe('tenant isolation', () => {
    it("merchant B's keys are 404 for merchant A, by session and by key", async () => {
      const theirs = await createKey(app, rival.session, { name: 'B private', permissions: ['customers:read'] });
      for (const token of [merchant.session, merchant.testKey]) {
        expectError(await get(token, theirs.id), 404, 'NOT_FOUND');
        expectError(await post(token, 'update', { id: theirs.id, name: 'pwned', permissions: ['*'] }), 404, 'NOT_FOUND');
        expectError(await post(token, 'revoke', { id: theirs.id }), 404, 'NOT_FOUND');
        expectError(await post(token, 'roll', { id: theirs.id, expiresInSeconds: 0 }), 404, 'NOT_FOUND');
        const items = await listAll(token);
        expect(items.map((item) => item.id)).not.toContain(theirs.id);
      }
      const row = await keyRow(theirs.id);
      expect(row).toMatchObject({ name: 'B private', permissions: JSON.stringify(['customers:read']), revoked_at: null, expires_at: null });
      expectOk(await storesWith(theirs.key));
      const rivalView = await get(rival.session, theirs.id);
      expectOk(rivalView);
      expect(rivalView.body.data.name).toBe('B private');
    });
  });

  describe('update', () => {
    it('changes name and permissions, and the key access follows', async () => {
      const key = await createKey(app, merchant.session, { name: 'before', permissions: ['customers:read'] });
      expectError(await list(key.key), 403, 'FORBIDDEN');

      const updated = await post(merchant.session, 'update', { id: key.id, name: 'after', permissions: ['*'] });
      expectOk(updated);
      expect(Object.keys(updated.body.data).sort()).toEqual(KEY_OBJECT_FIELDS);
      expect(updated.body.data).toMatchObject({ id: key.id, name: 'after', permissions: ['*'], mode: 'test', revokedAt: null });
      expectOk(await list(key.key));
      expect((await get(merchant.session, key.id)).body.data).toMatchObject({ name: 'after', permissions: ['*'] });

      const narrowed = await post(merchant.testKey, 'update', { id: key.id, permissions: ['payouts:read'] });
      expectOk(narrowed);
      expect(narrowed.body.data).toMatchObject({ name: 'after', permissions: ['payouts:read'] });
      expectError(await list(key.key), 403, 'FORBIDDEN');

      const renamedOnly = await post(merchant.session, 'update', { id: key.id, name: 'renamed only' });
      expectOk(renamedOnly);
      expect(renamedOnly.body.data).toMatchObject({ name: 'renamed only', permissions: ['payouts:read'] });
    });

    it('validates like create and answers 404 for an unknown id', async () => {
      const key = await createKey(app, merchant.session, { name: 'validated', permissions: ['customers:read'] });
      expectValidationDetail(await post(merchant.session, 'update', { id: key.id, permissions: [] }), 'permissions');
      expectValidationDetail(await post(merchant.session, 'update', { id: key.id, permissions: ['*', 'customers:write'] }), 'permissions');
      expectValidationDetail(await post(merchant.session, 'update', { id: key.id, permissions: ['customers:admin'] }), 'permissions');
      expectValidationDetail(await post(merchant.session, 'update', { id: key.id, mode: 'live' }), 'mode');
      expectValidationDetail(await post(merchant.session, 'update', { name: 'no id' }), 'id');
      expectError(await post(merchant.session, 'update', { id: MISSING_ID, name: 'ghost' }), 404, 'NOT_FOUND');
      expect((await get(merchant.session, key.id)).body.data).toMatchObject({ name: 'validated', permissions: ['customers:read'] });
    });
  });

  describe('revoke', () => {
    it('stops the key at once and is idempotent', async () => {
      const key = await createKey(app, merchant.session, { name: 'to revoke', permissions: ['*'] });
      expectOk(await storesWith(key.key));

      const revoked = await post(merchant.session, 'revoke', { id: key.id });
      expectOk(revoked);
      expect(Object.keys(revoked.body.data).sort()).toEqual(KEY_OBJECT_FIELDS);
      expect(revoked.body.data).toMatchObject({ id: key.id, name: 'to revoke', revokedAt: expect.stringMatching(ISO) });
      expect(Date.parse(revoked.body.data.revokedAt)).toBeLessThanOrEqual(Date.now() + 1000);

      expectError(await storesWith(key.key), 401, 'UNAUTHENTICATED');
      expectError(await list(key.key), 401, 'UNAUTHENTICATED');

      const again = await post(merchant.session, 'revoke', { id: key.id });
      expectOk(again);
      expect(again.body.data).toEqual(revoked.body.data);
      expect((await get(merchant.session, key.id)).body.data.revokedAt).toBe(revoked.body.data.revokedAt);
    });

    it('a `*` key can revoke another key of its mode; unknown ids are 404', async () => {
      const key = await createKey(app, merchant.session, { name: 'revoked by key', permissions: ['customers:read'] });
      expectOk(await post(merchant.testKey, 'revoke', { id: key.id }));
      expectError(await storesWith(key.key), 401, 'UNAUTHENTICATED');
      expectError(await post(merchant.session, 'revoke', { id: MISSING_ID }), 404, 'NOT_FOUND');
    });
  });

  describe('roll', () => {
    it('with expiresInSeconds 0 replaces the key at once, keeping name, permissions and mode', async () => {
      const old = await createKey(app, merchant.session, { name: 'rolled now', permissions: ['customers:write', 'customers:read'] });
      const oldView = (await get(merchant.session, old.id)).body.data as KeyObject;

      const rolled = await post(merchant.session, 'roll', { id: old.id, expiresInSeconds: 0 });
      expectOk(rolled);
      const fresh: KeyObject = rolled.body.data;
      expect(Object.keys(fresh).sort()).toEqual([...KEY_OBJECT_FIELDS, 'key'].sort());
      expect(fresh.id).toMatch(/^key_/);
      expect(fresh.id).not.toBe(old.id);
      expect(fresh.key).toMatch(/^sk_test_/);
      expect(fresh.key).not.toBe(old.key);
      expect(fresh.key!.startsWith(fresh.prefix)).toBe(true);
      expect(fresh.key!.endsWith(fresh.last4)).toBe(true);
      expect(fresh).toMatchObject({ name: oldView.name, mode: oldView.mode, permissions: oldView.permissions, revokedAt: null, lastUsedAt: null });

      expectOk(await storesWith(fresh.key!));
      expectError(await storesWith(old.key), 401, 'UNAUTHENTICATED');
      const freshRow = await keyRow(fresh.id);
      expect(freshRow.key_hash).not.toBe(fresh.key);
    });

    it('without expiresInSeconds stops the old key at once (default 0)', async () => {
      const old = await createKey(app, merchant.session, { name: 'rolled default', permissions: ['*'] });
      const rolled = await post(merchant.testKey, 'roll', { id: old.id });
      expectOk(rolled);
      expectError(await storesWith(old.key), 401, 'UNAUTHENTICATED');
      expectOk(await storesWith(rolled.body.data.key));
    });

    it('with a grace period keeps both keys working until the old one expires', async () => {
      const old = await createKey(app, merchant.session, { name: 'rolled with grace', permissions: ['*'] });
      const before = Date.now();
      const rolled = await post(merchant.session, 'roll', { id: old.id, expiresInSeconds: 2 });
      expectOk(rolled);
      const fresh: KeyObject = rolled.body.data;

      expectOk(await storesWith(old.key));
      expectOk(await storesWith(fresh.key!));

      const oldView = (await get(merchant.session, old.id)).body.data as KeyObject;
      expect(oldView.revokedAt).toBeNull();
      const oldExpiry = Date.parse(oldView.expiresAt!);
      expect(oldExpiry).toBeGreaterThanOrEqual(before + 2000 - 50);
      expect(oldExpiry).toBeLessThanOrEqual(Date.now() + 2000 + 50);

      await new Promise((resolve) => setTimeout(resolve, Math.max(0, oldExpiry - Date.now()) + 200));
      expectError(await storesWith(old.key), 401, 'UNAUTHENTICATED');
      expectOk(await storesWith(fresh.key!));
    });

    it('refuses a revoked or already expired key with 409 INVALID_STATE', async () => {
      const revoked = await createKey(app, merchant.session, { name: 'revoked then rolled', permissions: ['*'] });
      expectOk(await post(merchant.session, 'revoke', { id: revoked.id }));
      expectError(await post(merchant.session, 'roll', { id: revoked.id, expiresInSeconds: 0 }), 409, 'INVALID_STATE');

      const rolledTwice = await createKey(app, merchant.session, { name: 'rolled twice', permissions: ['*'] });
      expectOk(await post(merchant.session, 'roll', { id: rolledTwice.id, expiresInSeconds: 0 }));
      expectError(await post(merchant.session, 'roll', { id: rolledTwice.id, expiresInSeconds: 0 }), 409, 'INVALID_STATE');

      const countBefore = await keyCount(merchant.merchantId);
      expectError(await post(merchant.session, 'roll', { id: revoked.id }), 409, 'INVALID_STATE');
      expect(await keyCount(merchant.merchantId)).toBe(countBefore);
    });

    it.each([
      ['-1', -1],
      ['604801', 604801],
      ['a fraction', 1.5],
      ['a string', '60'],
    ])('rejects expiresInSeconds %s with 400', async (_label, expiresInSeconds) => {
      const key = await createKey(app, merchant.session, { name: 'bad grace', permissions: ['*'] });
      expectValidationDetail(await post(merchant.session, 'roll', { id: key.id, expiresInSeconds }), 'expiresInSeconds');
      expectOk(await storesWith(key.key));
      expect((await get(merchant.session, key.id)).body.data).toMatchObject({ revokedAt: null, expiresAt: null });
    });

    it('accepts the maximum grace of 604800 s', async () => {
      const key = await createKey(app, merchant.session, { name: 'max grace', permissions: ['*'] });
      const before = Date.now();
      expectOk(await post(merchant.session, 'roll', { id: key.id, expiresInSeconds: 604800 }));
      const expiry = Date.parse((await get(merchant.session, key.id)).body.data.expiresAt);
      expect(expiry).toBeGreaterThanOrEqual(before + 604_800_000 - 1000);
      expect(expiry).toBeLessThanOrEqual(Date.now() + 604_800_000 + 1000);
      expectOk(await storesWith(key.key));
    });

    it('answers an unknown id with 404', async () => {
      expectError(await post(merchant.session, 'roll', { id: MISSING_ID }), 404, 'NOT_FOUND');
    });
  });

  describe('expiry and last use', () => {
    it('an expired key answers 401', async () => {
      const key = await createKey(app, merchant.session, {
        name: 'expiring',
        permissions: ['*'],
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      expectOk(await storesWith(key.key));
      await app.database.db
        .updateTable('api_keys')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', key.id)
        .execute();
      expectError(await storesWith(key.key), 401, 'UNAUTHENTICATED');
      expectError(await list(key.key), 401, 'UNAUTHENTICATED');
      expectError(await post(merchant.session, 'roll', { id: key.id }), 409, 'INVALID_STATE');
    });

    it('sets lastUsedAt once the key is used', async () => {
      const key = await createKey(app, merchant.session, { name: 'usage', permissions: ['customers:read'] });
      expect((await get(merchant.session, key.id)).body.data.lastUsedAt).toBeNull();
      const before = Date.now();
      expectOk(await storesWith(key.key));
      const lastUsedAt = (await get(merchant.session, key.id)).body.data.lastUsedAt;
      expect(lastUsedAt).toMatch(ISO);
      expect(Date.parse(lastUsedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(lastUsedAt)).toBeLessThanOrEqual(Date.now() + 1000);
    });
  });

  describe('pagination (API.md §1.2)', () => {
    let owner: RegisteredMerchant;
    let newestFirst: string[];

    beforeAll(async () => {
      owner = await registerMerchant(app, 'Paginated');
      const created: string[] = [];
      for (let index = 0; index < 25; index += 1) {
        created.push((await createKey(app, owner.session, { name: `page key ${index}`, permissions: ['customers:read'] })).id);
      }
      const defaultKeyId = await keyIdOf(owner.testKey);
      newestFirst = [...created].reverse().concat(defaultKeyId);
    });

    it('pages newest first through every key without duplicates or gaps', async () => {
      const first = await list(owner.session, { limit: 10 });
      expectOk(first);
      expect(first.body.data.items).toHaveLength(10);
      expect(first.body.data.hasMore).toBe(true);
      expect(typeof first.body.data.next).toBe('string');
      expect(first.body.data.items[0].name).toBe('page key 24');

      const seen: string[] = [];
      const pages: number[] = [];
      let response = first;
      for (;;) {
        const { items, hasMore, next } = response.body.data;
        seen.push(...items.map((item: KeyObject) => item.id));
        pages.push(items.length);
        if (!hasMore) {
          expect(next).toBeNull();
          break;
        }
        expect(typeof next).toBe('string');
        expect(pages.length).toBeLessThan(10);
        response = await list(owner.session, { limit: 10, after: next });
        expectOk(response);
      }
      expect(pages).toEqual([10, 10, 6]);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(newestFirst);
    });

    it('returns createdAt in non-increasing order and defaults to 20 items', async () => {
      const response = await list(owner.session);
      expectOk(response);
      expect(response.body.data.items).toHaveLength(20);
      expect(response.body.data.hasMore).toBe(true);
      const times = response.body.data.items.map((item: KeyObject) => Date.parse(item.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it('ends with hasMore false and next null when the page holds the rest exactly', async () => {
      const response = await list(owner.session, { limit: 26 });
      expectOk(response);
      expect(response.body.data).toMatchObject({ hasMore: false, next: null });
      expect(response.body.data.items).toHaveLength(26);
    });

    it.each([['0'], ['101'], ['abc'], ['-5'], ['2.5']])('rejects limit=%s with 400', async (limit) => {
      expectValidationDetail(await list(owner.session, { limit }), 'limit');
    });

    it.each([['garbage'], ['!!!'], [Buffer.from('v1:nope').toString('base64url')], [Buffer.from('hello').toString('base64url')]])(
      'rejects a garbage cursor after=%s with 400',
      async (after) => {
        expectValidationDetail(await list(owner.session, { after }), 'after');
      },
    );
  });

  describe('idempotency (API.md §1.3)', () => {
    let owner: RegisteredMerchant;
    let other: RegisteredMerchant;
    const createWithKey = (token: string, idempotencyKey: string, body: unknown) =>
      http().post('/v1/api-keys/create').set(bearer(token)).set('Idempotency-Key', idempotencyKey).send(body as object);
    const namedCount = async (merchantId: string, name: string) =>
      (await app.database.db.selectFrom('api_keys').select('id').where('merchant_id', '=', merchantId).where('name', '=', name).execute()).length;
    const unique = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

    beforeAll(async () => {
      owner = await registerMerchant(app, 'Idempotent');
      other = await registerMerchant(app, 'Idempotent too');
    });

    it('replays the first answer for the same key and body, and creates one key', async () => {
      const idem = unique('idem');
      const body = { name: unique('replayed'), permissions: ['customers:read'] };
      const first = await createWithKey(owner.testKey, idem, body);
      expectOk(first, 201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();

      const second = await createWithKey(owner.testKey, idem, body);
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      expect(second.body.data.key).toBe(first.body.data.key);

      const listed = (await listAll(owner.session)).filter((item) => item.name === body.name);
      expect(listed.map((item) => item.id)).toEqual([first.body.data.id]);
      expect(await namedCount(owner.merchantId, body.name)).toBe(1);
    });

    it('keeps the stored answer encrypted: the new secret never sits in the database in clear', async () => {
      const idem = unique('sealed');
      const first = await createWithKey(owner.testKey, idem, { name: unique('sealed'), permissions: ['*'] });
      expectOk(first, 201);
      const record = await app.database.db
        .selectFrom('idempotency_records')
        .selectAll()
        .where('merchant_id', '=', owner.merchantId)
        .where('idempotency_key', '=', idem)
        .executeTakeFirstOrThrow();
      expect(record.state).toBe('completed');
      expect(record.response_body).not.toContain(first.body.data.key);
      expect(record.response_body).not.toContain(first.body.data.id);
    });

    it('refuses a replay to another key of the same merchant and mode (422), without revealing the answer', async () => {
      const idem = unique('other-key');
      const body = { name: unique('other-key'), permissions: ['*'] };
      expectOk(await createWithKey(owner.testKey, idem, body), 201);
      const sibling = await createKey(app, owner.session, { permissions: ['*'] });
      const replay = await createWithKey(sibling.key, idem, body);
      expect(replay.status).toBe(422);
      expect(replay.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(replay.body.data).toBeNull();
      expect(await namedCount(owner.merchantId, body.name)).toBe(1);
    });

    it('answers the same key with a different body with 422 IDEMPOTENCY_KEY_REUSED', async () => {
      const idem = unique('idem');
      const name = unique('original');
      expectOk(await createWithKey(owner.testKey, idem, { name, permissions: ['*'] }), 201);
      const otherName = unique('different');
      const reused = await createWithKey(owner.testKey, idem, { name: otherName, permissions: ['*'] });
      expectError(reused, 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(reused.headers['idempotent-replayed']).toBeUndefined();
      expect(await namedCount(owner.merchantId, otherName)).toBe(0);
      expect(await namedCount(owner.merchantId, name)).toBe(1);
    });

    it('answers the same key on a different route with 422 and does not run it', async () => {
      const idem = unique('idem');
      const created = await createWithKey(owner.testKey, idem, { name: unique('route'), permissions: ['*'] });
      expectOk(created, 201);
      const update = await http()
        .post('/v1/api-keys/update')
        .set(bearer(owner.testKey))
        .set('Idempotency-Key', idem)
        .send({ id: created.body.data.id, name: 'renamed through reuse' });
      expectError(update, 422, 'IDEMPOTENCY_KEY_REUSED');
      expect((await get(owner.session, created.body.data.id)).body.data.name).toBe(created.body.data.name);

      // The same body on another route is a reuse too: only the route differs.
      const target = await createKey(app, owner.session, { name: unique('route-target'), permissions: ['*'] });
      const idem2 = unique('idem');
      const withKey = (route: string) =>
        http().post(`/v1/api-keys/${route}`).set(bearer(owner.testKey)).set('Idempotency-Key', idem2).send({ id: target.id });
      const updated = await withKey('update');
      expectOk(updated);
      expectError(await withKey('roll'), 422, 'IDEMPOTENCY_KEY_REUSED');
      expectOk(await storesWith(target.key));
      const sameName = await app.database.db.selectFrom('api_keys').select('id').where('name', '=', updated.body.data.name).execute();
      expect(sameName).toEqual([{ id: target.id }]); // no rolled successor was created
    });

    it('accepts a key of 255 printable characters and refuses 256 characters or an empty key with 400', async () => {
      const name256 = unique('too-long');
      const tooLong = await createWithKey(owner.testKey, 'k'.repeat(256), { name: name256, permissions: ['*'] });
      expectError(tooLong, 400, 'VALIDATION_ERROR');
      expect(await namedCount(owner.merchantId, name256)).toBe(0);

      const name255 = unique('longest');
      const longest = unique('longest').padEnd(255, 'x');
      expect(longest).toHaveLength(255);
      expectOk(await createWithKey(owner.testKey, longest, { name: name255, permissions: ['*'] }), 201);
      const replay = await createWithKey(owner.testKey, longest, { name: name255, permissions: ['*'] });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(await namedCount(owner.merchantId, name255)).toBe(1);

      expectError(await createWithKey(owner.testKey, '', { name: unique('empty'), permissions: ['*'] }), 400, 'VALIDATION_ERROR');
    });

    it('scopes keys per merchant: the same key string used by A and B does not collide', async () => {
      const idem = unique('shared');
      const body = { name: unique('shared-body'), permissions: ['customers:read'] };
      const fromA = await createWithKey(owner.testKey, idem, body);
      const fromB = await createWithKey(other.testKey, idem, body);
      expectOk(fromA, 201);
      expectOk(fromB, 201);
      expect(fromB.headers['idempotent-replayed']).toBeUndefined();
      expect(fromB.body.data.id).not.toBe(fromA.body.data.id);
      expect(fromB.body.data.key).not.toBe(fromA.body.data.key);
      expect(await namedCount(owner.merchantId, body.name)).toBe(1);
      expect(await namedCount(other.merchantId, body.name)).toBe(1);
      expect((await listAll(other.session)).map((item) => item.id)).toContain(fromB.body.data.id);
      expect((await listAll(other.session)).map((item) => item.id)).not.toContain(fromA.body.data.id);

      // B's replay is B's answer, A's replay is A's.
      const replayB = await createWithKey(other.testKey, idem, body);
      expect(replayB.body.data.id).toBe(fromB.body.data.id);
      const replayA = await createWithKey(owner.testKey, idem, body);
      expect(replayA.body.data.id).toBe(fromA.body.data.id);
    });

    it('scopes keys per mode: the same key string with a live key runs afresh', async () => {
      const liveStar = await createKey(app, owner.session, { name: unique('live-star'), mode: 'live', permissions: ['*'] });
      const idem = unique('mode');
      const testAnswer = await createWithKey(owner.testKey, idem, { name: unique('in-test'), permissions: ['*'] });
      expectOk(testAnswer, 201);
      const liveName = unique('in-live');
      const liveAnswer = await createWithKey(liveStar.key, idem, { name: liveName, mode: 'live', permissions: ['*'] });
      expectOk(liveAnswer, 201);
      expect(liveAnswer.headers['idempotent-replayed']).toBeUndefined();
      expect(liveAnswer.body.data.mode).toBe('live');
      expect(await namedCount(owner.merchantId, liveName)).toBe(1);
    });

    it('executes once under 8 concurrent identical requests', async () => {
      const idem = unique('race');
      const body = { name: unique('raced'), permissions: ['customers:read'] };
      const responses = await Promise.all(Array.from({ length: 8 }, () => createWithKey(owner.testKey, idem, body)));

      expect(await namedCount(owner.merchantId, body.name)).toBe(1);
      const created = responses.filter((response) => response.status === 201);
      const others = responses.filter((response) => response.status !== 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((response) => response.body.data.id)).size).toBe(1);
      expect(new Set(created.map((response) => response.body.data.key)).size).toBe(1);
      for (const response of others) expectError(response, 409, 'IDEMPOTENCY_IN_PROGRESS');
      const [row] = await app.database.db.selectFrom('api_keys').select('id').where('name', '=', body.name).execute();
      expect(created[0].body.data.id).toBe(row.id);

      // Once it is done, a retry replays the one answer.
      const retry = await createWithKey(owner.testKey, idem, body);
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body.data.id).toBe(row.id);
    });

    it('stores and replays a validation failure', async () => {
      const idem = unique('invalid');
      const body = { name: unique('invalid-body'), permissions: [] };
      const first = await createWithKey(owner.testKey, idem, body);
      expectError(first, 400, 'VALIDATION_ERROR');
      expect(first.headers['idempotent-replayed']).toBeUndefined();

      const second = await createWithKey(owner.testKey, idem, body);
      expect(second.status).toBe(400);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);

      // The key is spent on that answer: a corrected body under the same key is a reuse, not a new run.
      const corrected = await createWithKey(owner.testKey, idem, { ...body, permissions: ['*'] });
      expectError(corrected, 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(await namedCount(owner.merchantId, body.name)).toBe(0);
    });
  });

  /** The id of a key, looked up the way a caller would: by its prefix and last4 among the merchant's keys. */
  async function keyIdOf(fullKey: string): Promise<string> {
    const mode = fullKey.startsWith('sk_live_') ? 'live' : 'test';
    const random = fullKey.slice(`sk_${mode}_`.length);
    const rows = await app.database.db
      .selectFrom('api_keys')
      .select('id')
      .where('prefix', '=', `sk_${mode}_${random.slice(0, 4)}`)
      .where('last4', '=', random.slice(-4))
      .execute();
    if (rows.length !== 1) throw new Error(`expected one key row for ${fullKey.slice(0, 12)}…, found ${rows.length}`);
    return rows[0].id;
  }

  async function keyCount(merchantId: string): Promise<number> {
    return (await app.database.db.selectFrom('api_keys').select('id').where('merchant_id', '=', merchantId).execute()).length;
  }
});
