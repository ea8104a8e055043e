import type { Response } from 'supertest';
import type { Scope } from '../src/common/auth/auth-context';
import { expectError, expectOk, expectValidationField, manyKeys } from './support/assertions';
import { DomainError } from '../src/common/errors/domain-error';
import { CouponsService } from '../src/modules/coupons/coupons.service';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { sql } from 'kysely';
import { onPostgres, startTestApp, TestApp } from './support/test-app';

/**
 * Coupons — API.md §8.3, with §1 (envelope, metadata, lists, idempotency) and §2.4 (permissions), and the
 * reservation API that checkouts and subscriptions use (CouponsService.reserve / release).
 */

const COUPON_FIELDS = [
  'code',
  'createdAt',
  'devMode',
  'discount',
  'discountKind',
  'expiresAt',
  'id',
  'maxRedeems',
  'metadata',
  'notes',
  'redeemsCount',
  'status',
  'updatedAt',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const COUPON_ID = /^coup_[0-9A-Z]{26}$/;
const MISSING_ID = 'coup_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const PAST = '2020-01-01T00:00:00.000Z';

interface Coupon {
  id: string;
  code: string;
  discountKind: 'PERCENTAGE' | 'FIXED';
  discount: number;
  maxRedeems: number;
  redeemsCount: number;
  status: 'ACTIVE' | 'INACTIVE' | 'EXPIRED';
  expiresAt: string | null;
  notes: string | null;
  metadata: Record<string, string>;
  devMode: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The promise rejects with a DomainError of `code`. */
async function expectDomainError(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
}

const inOneHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('Coupons — /v1/coupons (API.md §8.3)', () => {
  let app: TestApp;
  let merchant: RegisteredMerchant;
  let rival: RegisteredMerchant;
  let liveKey: string;
  let coupons: CouponsService;
  let testScope: Scope;

  const http = () => app.http();
  const post = (token: string, route: string, body: unknown) =>
    http().post(`/v1/coupons/${route}`).set(bearer(token)).send(body as object);
  const get = (token: string, query: Record<string, string>) => http().get('/v1/coupons/get').query(query).set(bearer(token));
  const list = (token: string, query: Record<string, string | number> = {}) =>
    http().get('/v1/coupons/list').query(query).set(bearer(token));
  let counter = 0;
  const code = (label = 'CUPOM') => {
    counter += 1;
    return `${label}-${counter}-${Date.now() % 1_000_000}`;
  };
  const body = (fields: Record<string, unknown> = {}) => ({ code: code(), discountKind: 'PERCENTAGE', discount: 10, ...fields });
  const create = async (token: string, fields: Record<string, unknown> = {}): Promise<Coupon> => {
    const response = await post(token, 'create', body(fields));
    expectOk(response, 201);
    return response.body.data;
  };
  const fetch = async (id: string, token = merchant.testKey): Promise<Coupon> => {
    const response = await get(token, { id });
    expectOk(response);
    return response.body.data;
  };
  const rowsWithCode = (value: string) => app.database.db.selectFrom('coupons').selectAll().where('code', '=', value).execute();
  const expireInDb = (id: string) =>
    app.database.db.updateTable('coupons').set({ expires_at: PAST }).where('id', '=', id).execute();
  const exhaustedEvents = async (couponId: string) => {
    const rows = await app.database.db.selectFrom('events').selectAll().where('type', '=', 'coupon.exhausted').execute();
    return rows.filter((row) => (JSON.parse(row.data) as { object: { id: string } }).object.id === couponId);
  };
  const reserve = (couponCode: string, scope: Scope = testScope) =>
    app.database.transaction((trx) => coupons.reserve(scope, couponCode, trx));
  const release = (couponId: string, scope: Scope = testScope) =>
    app.database.transaction((trx) => coupons.release(scope, couponId, trx));
  const listAll = async (token: string, query: Record<string, string> = {}): Promise<Coupon[]> => {
    const items: Coupon[] = [];
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
    liveKey = (await createKey(app, merchant.session, { mode: 'live', permissions: ['*'] })).key;
    coupons = app.app.get(CouponsService);
    testScope = { storeId: merchant.storeId, mode: 'test' };
  });
  afterAll(() => app.close());

  describe('create', () => {
    it('answers 201 with the whole coupon: code upper-cased, maxRedeems -1 by default, devMode true', async () => {
      const response = await post(merchant.testKey, 'create', { code: 'summer_10-a', discountKind: 'PERCENTAGE', discount: 10 });
      expectOk(response, 201);
      const coupon: Coupon = response.body.data;
      expect(Object.keys(coupon).sort()).toEqual(COUPON_FIELDS);
      expect(coupon).toEqual({
        id: expect.stringMatching(COUPON_ID),
        code: 'SUMMER_10-A',
        discountKind: 'PERCENTAGE',
        discount: 10,
        maxRedeems: -1,
        redeemsCount: 0,
        status: 'ACTIVE',
        expiresAt: null,
        notes: null,
        metadata: {},
        devMode: true,
        createdAt: expect.stringMatching(ISO),
        updatedAt: coupon.createdAt,
      });
      expect(Math.abs(Date.parse(coupon.createdAt) - Date.now())).toBeLessThan(60_000);
      expect((await rowsWithCode('SUMMER_10-A')).map((row) => row.id)).toEqual([coupon.id]);
      expect(await fetch(coupon.id)).toEqual(coupon);
    });

    it('stores every optional field, expiresAt normalised to UTC', async () => {
      const couponCode = code('FIXO');
      const coupon = await create(merchant.testKey, {
        code: couponCode,
        discountKind: 'FIXED',
        discount: 1500,
        maxRedeems: 3,
        expiresAt: '2099-06-30T21:00:00-03:00',
        notes: 'Campanha de inverno',
        metadata: { campaign: 'winter' },
      });
      expect(coupon).toMatchObject({
        code: couponCode,
        discountKind: 'FIXED',
        discount: 1500,
        maxRedeems: 3,
        redeemsCount: 0,
        status: 'ACTIVE',
        expiresAt: '2099-07-01T00:00:00.000Z',
        notes: 'Campanha de inverno',
        metadata: { campaign: 'winter' },
      });
    });

    it('marks a coupon created with a live key devMode false', async () => {
      const coupon = await create(liveKey);
      expect(coupon.devMode).toBe(false);
      expect((await fetch(coupon.id, liveKey)).devMode).toBe(false);
    });

    it.each([
      ['3 characters', 'ABC'],
      ['40 characters', 'A'.repeat(40)],
      ['digits, _ and -', '10_OFF-2026'],
    ])('accepts a code of %s', async (_label, couponCode) => {
      expect((await create(merchant.testKey, { code: couponCode })).code).toBe(couponCode);
    });

    it.each([
      ['2 characters', 'AB'],
      ['41 characters', 'B'.repeat(41)],
      ['a space', 'BLACK FRIDAY'],
      ['punctuation', 'PROMO!'],
      ['an accent', 'PROMOÇÃO'],
      ['an empty string', ''],
      ['a number', 12345],
    ])('rejects a code with %s (400 on field code)', async (_label, couponCode) => {
      expectValidationField(await post(merchant.testKey, 'create', body({ code: couponCode })), 'code');
    });

    it('requires code, discountKind and discount', async () => {
      expectValidationField(await post(merchant.testKey, 'create', { discountKind: 'FIXED', discount: 100 }), 'code');
      expectValidationField(await post(merchant.testKey, 'create', { code: code(), discount: 100 }), 'discountKind');
      expectValidationField(await post(merchant.testKey, 'create', { code: code(), discountKind: 'FIXED' }), 'discount');
      expectValidationField(await post(merchant.testKey, 'create', body({ discountKind: 'BOGO' })), 'discountKind');
    });

    it('answers a duplicate code, in any case, with 409 CONFLICT', async () => {
      const couponCode = code('DUP');
      await create(merchant.testKey, { code: couponCode });
      expectError(await post(merchant.testKey, 'create', body({ code: couponCode })), 409, 'CONFLICT');
      expectError(await post(merchant.testKey, 'create', body({ code: couponCode.toLowerCase(), discountKind: 'FIXED', discount: 500 })), 409, 'CONFLICT');
      expect((await rowsWithCode(couponCode)).length).toBe(1);
    });

    it("allows the same code in the other mode and in another merchant's store", async () => {
      const couponCode = code('SHARED');
      const ids = [
        (await create(merchant.testKey, { code: couponCode })).id,
        (await create(liveKey, { code: couponCode })).id,
        (await create(rival.testKey, { code: couponCode })).id,
      ];
      expect(new Set(ids).size).toBe(3);
      expect((await rowsWithCode(couponCode)).length).toBe(3);
    });

    it('accepts PERCENTAGE 1 and 100 and FIXED 1', async () => {
      expect((await create(merchant.testKey, { discountKind: 'PERCENTAGE', discount: 1 })).discount).toBe(1);
      expect((await create(merchant.testKey, { discountKind: 'PERCENTAGE', discount: 100 })).discount).toBe(100);
      expect((await create(merchant.testKey, { discountKind: 'FIXED', discount: 1 })).discount).toBe(1);
    });

    it.each([
      ['PERCENTAGE', 0],
      ['PERCENTAGE', 101],
      ['PERCENTAGE', -5],
      ['PERCENTAGE', 12.5],
      ['FIXED', 0],
      ['FIXED', -100],
      ['FIXED', 99.9],
      ['FIXED', '500'],
    ])('rejects %s discount %p (400 on field discount)', async (discountKind, discount) => {
      const fields = body({ discountKind, discount });
      expectValidationField(await post(merchant.testKey, 'create', fields), 'discount');
      expect(await rowsWithCode(fields.code)).toEqual([]);
    });

    it('accepts maxRedeems -1 and positive counts', async () => {
      expect((await create(merchant.testKey, { maxRedeems: -1 })).maxRedeems).toBe(-1);
      expect((await create(merchant.testKey, { maxRedeems: 1 })).maxRedeems).toBe(1);
      expect((await create(merchant.testKey, { maxRedeems: 250 })).maxRedeems).toBe(250);
    });

    it.each([0, -2, 2.5, '10'])('rejects maxRedeems %p (400 on field maxRedeems)', async (maxRedeems) => {
      const fields = body({ maxRedeems });
      expectValidationField(await post(merchant.testKey, 'create', fields), 'maxRedeems');
      expect(await rowsWithCode(fields.code)).toEqual([]);
    });

    it.each([
      ['in the past', PAST],
      ['a minute ago', () => new Date(Date.now() - 60_000).toISOString()],
      ['not a date', 'next friday'],
      ['a number', 1893456000000],
    ])('rejects expiresAt %s (400 on field expiresAt)', async (_label, value) => {
      const fields = body({ expiresAt: typeof value === 'function' ? value() : value });
      expectValidationField(await post(merchant.testKey, 'create', fields), 'expiresAt');
      expect(await rowsWithCode(fields.code)).toEqual([]);
    });

    it('rejects unknown body fields, including fields the server owns', async () => {
      for (const extra of [{ percentOff: 5 }, { status: 'INACTIVE' }, { redeemsCount: 3 }]) {
        const fields = body(extra);
        expectValidationField(await post(merchant.testKey, 'create', fields), Object.keys(extra)[0]);
        expect(await rowsWithCode(fields.code)).toEqual([]);
      }
    });

    it('accepts metadata at the limits (50 keys, key 40, value 500)', async () => {
      expect(Object.keys((await create(merchant.testKey, { metadata: manyKeys(50) })).metadata).length).toBe(50);
      const edge = { ['k'.repeat(40)]: 'v'.repeat(500) };
      expect((await create(merchant.testKey, { metadata: edge })).metadata).toEqual(edge);
    });

    it.each([
      ['51 keys', manyKeys(51)],
      ['a 41-char key', { ['k'.repeat(41)]: 'v' }],
      ['a 501-char value', { note: 'v'.repeat(501) }],
      ['a boolean value', { vip: true }],
      ['a nested object', { nested: { a: 'b' } }],
      ['an array value', { tags: ['a'] }],
      ['an array', ['a']],
    ])('rejects metadata with %s (400, field metadata)', async (_label, metadata) => {
      const fields = body({ metadata });
      expectValidationField(await post(merchant.testKey, 'create', fields), 'metadata');
      expect(await rowsWithCode(fields.code)).toEqual([]);
    });

    it('replays an Idempotency-Key: same body, header Idempotent-Replayed, one row', async () => {
      const fields = body();
      const key = `idem-coupons-${Date.now()}`;
      const first = await post(merchant.testKey, 'create', fields).set('Idempotency-Key', key);
      expectOk(first, 201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const second = await post(merchant.testKey, 'create', fields).set('Idempotency-Key', key);
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      expect((await rowsWithCode(fields.code)).length).toBe(1);
      expectError(await post(merchant.testKey, 'create', { ...fields, discount: 20 }).set('Idempotency-Key', key), 422, 'IDEMPOTENCY_KEY_REUSED');
    });
  });

  describe('get', () => {
    it('finds a coupon by id, or by code in any case', async () => {
      const coupon = await create(merchant.testKey);
      expect(await fetch(coupon.id)).toEqual(coupon);
      for (const variant of [coupon.code, coupon.code.toLowerCase(), ` ${coupon.code.toLowerCase()} `]) {
        const response = await get(merchant.testKey, { code: variant });
        expectOk(response);
        expect(response.body.data).toEqual(coupon);
      }
    });

    it('answers 404 for an unknown id or code, or an id and code of different coupons; 400 with neither', async () => {
      const one = await create(merchant.testKey);
      const two = await create(merchant.testKey);
      expectError(await get(merchant.testKey, { id: MISSING_ID }), 404, 'NOT_FOUND');
      expectError(await get(merchant.testKey, { code: 'NO-SUCH-CODE' }), 404, 'NOT_FOUND');
      expectError(await get(merchant.testKey, { id: one.id, code: two.code }), 404, 'NOT_FOUND');
      expectOk(await get(merchant.testKey, { id: one.id, code: one.code.toLowerCase() }));
      expectValidationField(await get(merchant.testKey, {}), 'id');
    });
  });

  describe('expiry and toggle', () => {
    it('toggles ACTIVE ⇄ INACTIVE and returns the coupon as get does', async () => {
      const coupon = await create(merchant.testKey);
      const off = await post(merchant.testKey, 'toggle', { id: coupon.id });
      expectOk(off);
      expect(off.body.data).toEqual({ ...coupon, status: 'INACTIVE', updatedAt: expect.stringMatching(ISO) });
      expect(await fetch(coupon.id)).toEqual(off.body.data);
      const on = await post(merchant.testKey, 'toggle', { id: coupon.id });
      expectOk(on);
      expect(on.body.data).toEqual({ ...coupon, status: 'ACTIVE', updatedAt: expect.stringMatching(ISO) });
    });

    it('shows EXPIRED once expires_at passes; toggling it is 409 INVALID_STATE', async () => {
      const coupon = await create(merchant.testKey, { expiresAt: inOneHour() });
      expect(coupon.status).toBe('ACTIVE');
      await expireInDb(coupon.id);
      const expired = await fetch(coupon.id);
      expect(expired).toMatchObject({ status: 'EXPIRED', expiresAt: PAST });
      expectError(await post(merchant.testKey, 'toggle', { id: coupon.id }), 409, 'INVALID_STATE');
      expect(await fetch(coupon.id)).toEqual(expired);
      expect((await app.database.db.selectFrom('coupons').select('status').where('id', '=', coupon.id).executeTakeFirstOrThrow()).status).toBe(
        'ACTIVE',
      );
    });

    it('shows an INACTIVE coupon whose expiry passed as EXPIRED too', async () => {
      const coupon = await create(merchant.testKey);
      expectOk(await post(merchant.testKey, 'toggle', { id: coupon.id }));
      await expireInDb(coupon.id);
      expect((await fetch(coupon.id)).status).toBe('EXPIRED');
      expectError(await post(merchant.testKey, 'toggle', { id: coupon.id }), 409, 'INVALID_STATE');
    });

    it('revives an expired coupon when expiresAt moves to the future or is removed', async () => {
      const coupon = await create(merchant.testKey);
      await expireInDb(coupon.id);
      const later = inOneHour();
      const extended = await post(merchant.testKey, 'update', { id: coupon.id, expiresAt: later });
      expectOk(extended);
      expect(extended.body.data).toMatchObject({ status: 'ACTIVE', expiresAt: later });
      await expireInDb(coupon.id);
      const cleared = await post(merchant.testKey, 'update', { id: coupon.id, expiresAt: null });
      expectOk(cleared);
      expect(cleared.body.data).toMatchObject({ status: 'ACTIVE', expiresAt: null });
    });

    it('toggle answers 404 for an unknown id and 400 without one', async () => {
      expectError(await post(merchant.testKey, 'toggle', { id: MISSING_ID }), 404, 'NOT_FOUND');
      expectValidationField(await post(merchant.testKey, 'toggle', {}), 'id');
    });
  });

  describe('update', () => {
    it('changes maxRedeems, expiresAt, notes and metadata', async () => {
      const coupon = await create(merchant.testKey, { notes: 'antes', metadata: { a: '1' } });
      const expiresAt = inOneHour();
      const response = await post(merchant.testKey, 'update', {
        id: coupon.id,
        maxRedeems: 10,
        expiresAt,
        notes: 'depois',
        metadata: { b: '2' },
      });
      expectOk(response);
      expect(response.body.data).toEqual({
        ...coupon,
        maxRedeems: 10,
        expiresAt,
        notes: 'depois',
        metadata: { b: '2' },
        updatedAt: expect.stringMatching(ISO),
      });
      expect(await fetch(coupon.id)).toEqual(response.body.data);
      const cleared = await post(merchant.testKey, 'update', { id: coupon.id, notes: null, maxRedeems: -1 });
      expectOk(cleared);
      expect(cleared.body.data).toMatchObject({ notes: null, maxRedeems: -1 });
    });

    it('refuses maxRedeems below redeemsCount (400 on maxRedeems), accepts equal or -1', async () => {
      const coupon = await create(merchant.testKey, { maxRedeems: 10 });
      for (let i = 0; i < 3; i += 1) await reserve(coupon.code);
      expect((await fetch(coupon.id)).redeemsCount).toBe(3);
      expectValidationField(await post(merchant.testKey, 'update', { id: coupon.id, maxRedeems: 2 }), 'maxRedeems');
      expect((await fetch(coupon.id)).maxRedeems).toBe(10);
      const equal = await post(merchant.testKey, 'update', { id: coupon.id, maxRedeems: 3 });
      expectOk(equal);
      expect(equal.body.data).toMatchObject({ maxRedeems: 3, redeemsCount: 3 });
      const unlimited = await post(merchant.testKey, 'update', { id: coupon.id, maxRedeems: -1 });
      expectOk(unlimited);
      expect(unlimited.body.data.maxRedeems).toBe(-1);
    });

    it('refuses maxRedeems below a redemption taken concurrently (redeemsCount never exceeds maxRedeems)', async () => {
      const coupon = await create(merchant.testKey, { maxRedeems: 10 });
      await reserve(coupon.code);
      let update: Promise<Response> | undefined;
      await app.database.transaction(async (trx) => {
        // A checkout holds a second redemption, not yet committed, while the merchant lowers maxRedeems to 1.
        await coupons.reserve(testScope, coupon.code, trx);
        update = post(merchant.testKey, 'update', { id: coupon.id, maxRedeems: 1 }).then((response) => response);
        if (onPostgres()) {
          // Commit only once the update has read the committed count (1) and waits for the row lock.
          let waiting = false;
          for (let attempt = 0; attempt < 400 && !waiting; attempt += 1) {
            const result = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`.execute(app.database.db);
            waiting = result.rows[0].waiting > 0;
            if (!waiting) await new Promise((resolve) => setTimeout(resolve, 25));
          }
          expect(waiting).toBe(true);
        }
      });
      expectValidationField(await update!, 'maxRedeems');
      expect(await fetch(coupon.id)).toMatchObject({ redeemsCount: 2, maxRedeems: 10 });
    });

    it('rejects bad values and fixed fields with 400, leaving the coupon unchanged', async () => {
      const coupon = await create(merchant.testKey);
      expectValidationField(await post(merchant.testKey, 'update', { id: coupon.id, maxRedeems: 0 }), 'maxRedeems');
      expectValidationField(await post(merchant.testKey, 'update', { id: coupon.id, expiresAt: PAST }), 'expiresAt');
      expectValidationField(await post(merchant.testKey, 'update', { id: coupon.id, expiresAt: 'soon' }), 'expiresAt');
      expectValidationField(await post(merchant.testKey, 'update', { id: coupon.id, metadata: manyKeys(51) }), 'metadata');
      expectValidationField(await post(merchant.testKey, 'update', { id: coupon.id, code: 'NEWCODE' }), 'code');
      expectValidationField(await post(merchant.testKey, 'update', { id: coupon.id, discount: 50 }), 'discount');
      expectValidationField(await post(merchant.testKey, 'update', { id: coupon.id, status: 'INACTIVE' }), 'status');
      expectValidationField(await post(merchant.testKey, 'update', { notes: 'sem id' }), 'id');
      expect(await fetch(coupon.id)).toEqual(coupon);
    });

    it('answers an unknown id with 404', async () => {
      expectError(await post(merchant.testKey, 'update', { id: MISSING_ID, notes: 'x' }), 404, 'NOT_FOUND');
    });
  });

  describe('list', () => {
    it('filters by status (ACTIVE, INACTIVE, EXPIRED) and by code in any case', async () => {
      const shop = await registerMerchant(app, 'Loja filtros');
      const active = await create(shop.testKey);
      const inactive = await create(shop.testKey);
      expectOk(await post(shop.testKey, 'toggle', { id: inactive.id }));
      const expired = await create(shop.testKey, { expiresAt: inOneHour() });
      await expireInDb(expired.id);

      const ids = async (query: Record<string, string>) => {
        const response = await list(shop.testKey, query);
        expectOk(response);
        return response.body.data.items.map((item: Coupon) => item.id);
      };
      expect(await ids({ status: 'ACTIVE' })).toEqual([active.id]);
      expect(await ids({ status: 'INACTIVE' })).toEqual([inactive.id]);
      expect(await ids({ status: 'EXPIRED' })).toEqual([expired.id]);
      expect(await ids({})).toEqual([expired.id, inactive.id, active.id]);
      expect(await ids({ code: active.code.toLowerCase() })).toEqual([active.id]);
      expect(await ids({ code: 'NOTHING' })).toEqual([]);
      expect(await ids({ code: active.code, status: 'INACTIVE' })).toEqual([]);

      const statuses = (await list(shop.testKey)).body.data.items.map((item: Coupon) => item.status);
      expect(statuses).toEqual(['EXPIRED', 'INACTIVE', 'ACTIVE']);
      expectValidationField(await list(shop.testKey, { status: 'USED_UP' }), 'status');
    });

    it('pages newest first with limit/after, without duplicates or gaps', async () => {
      const shop = await registerMerchant(app, 'Loja paginada');
      const created: Coupon[] = [];
      for (let i = 0; i < 5; i += 1) created.push(await create(shop.testKey));
      const expected = created.map((coupon) => coupon.id).reverse();

      const seen: string[] = [];
      const hasMores: boolean[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const response = await list(shop.testKey, { limit: 2, ...(after ? { after } : {}) });
        expectOk(response);
        pages += 1;
        seen.push(...response.body.data.items.map((item: Coupon) => item.id));
        hasMores.push(response.body.data.hasMore);
        after = response.body.data.next;
      } while (after !== null && pages < 10);
      expect(pages).toBe(3);
      expect(hasMores).toEqual([true, true, false]);
      expect(seen).toEqual(expected);
      expectValidationField(await list(shop.testKey, { after: '!!!' }), 'after');
      expectValidationField(await list(shop.testKey, { limit: 101 }), 'limit');
    });
  });

  describe('delete', () => {
    it('removes the coupon from get (id and code), list, update, toggle and reservations', async () => {
      const coupon = await create(merchant.testKey);
      const response = await post(merchant.testKey, 'delete', { id: coupon.id });
      expectOk(response);
      expect(response.body.data).toEqual({ id: coupon.id, deleted: true });
      expectError(await get(merchant.testKey, { id: coupon.id }), 404, 'NOT_FOUND');
      expectError(await get(merchant.testKey, { code: coupon.code }), 404, 'NOT_FOUND');
      expect((await listAll(merchant.testKey)).map((item) => item.id)).not.toContain(coupon.id);
      expectError(await post(merchant.testKey, 'update', { id: coupon.id, notes: 'x' }), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'toggle', { id: coupon.id }), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'delete', { id: coupon.id }), 404, 'NOT_FOUND');
      await expectDomainError(reserve(coupon.code), 'NOT_FOUND');
    });

    it('answers an unknown id with 404 and a missing id with 400', async () => {
      expectError(await post(merchant.testKey, 'delete', { id: MISSING_ID }), 404, 'NOT_FOUND');
      expectValidationField(await post(merchant.testKey, 'delete', {}), 'id');
    });
  });

  describe('reservations (CouponsService.reserve / release)', () => {
    it('reserve takes one redemption (case-insensitive code), visible through get', async () => {
      const coupon = await create(merchant.testKey, { maxRedeems: 10 });
      const row = await reserve(coupon.code.toLowerCase());
      expect(row).toMatchObject({ id: coupon.id, redeems_count: 1 });
      expect((await fetch(coupon.id)).redeemsCount).toBe(1);
      await reserve(coupon.code);
      expect((await fetch(coupon.id)).redeemsCount).toBe(2);
      expect(await exhaustedEvents(coupon.id)).toEqual([]);
    });

    it('an unlimited coupon keeps counting and never records coupon.exhausted', async () => {
      const coupon = await create(merchant.testKey);
      for (let i = 0; i < 4; i += 1) await reserve(coupon.code);
      expect(await fetch(coupon.id)).toMatchObject({ maxRedeems: -1, redeemsCount: 4, status: 'ACTIVE' });
      expect(await exhaustedEvents(coupon.id)).toEqual([]);
    });

    it('refuses an INACTIVE coupon with COUPON_UNAVAILABLE', async () => {
      const coupon = await create(merchant.testKey);
      expectOk(await post(merchant.testKey, 'toggle', { id: coupon.id }));
      await expectDomainError(reserve(coupon.code), 'COUPON_UNAVAILABLE');
      expect((await fetch(coupon.id)).redeemsCount).toBe(0);
    });

    it('refuses an EXPIRED coupon with COUPON_UNAVAILABLE', async () => {
      const coupon = await create(merchant.testKey, { expiresAt: inOneHour() });
      await expireInDb(coupon.id);
      await expectDomainError(reserve(coupon.code), 'COUPON_UNAVAILABLE');
      expect((await fetch(coupon.id)).redeemsCount).toBe(0);
    });

    it('refuses a used-up coupon with COUPON_UNAVAILABLE, recording coupon.exhausted once', async () => {
      const coupon = await create(merchant.testKey, { maxRedeems: 2 });
      await reserve(coupon.code);
      expect(await exhaustedEvents(coupon.id)).toEqual([]);
      await reserve(coupon.code);
      await expectDomainError(reserve(coupon.code), 'COUPON_UNAVAILABLE');
      expect(await fetch(coupon.id)).toMatchObject({ redeemsCount: 2, maxRedeems: 2, status: 'ACTIVE' });
      const events = await exhaustedEvents(coupon.id);
      expect(events.length).toBe(1);
      expect(events[0]).toMatchObject({ store_id: merchant.storeId, mode: 'test', type: 'coupon.exhausted' });
      expect(events[0].id).toMatch(/^evt_/);
      expect(JSON.parse(events[0].data).object).toMatchObject({ id: coupon.id, code: coupon.code, redeemsCount: 2, maxRedeems: 2 });
    });

    it('answers an unknown code, or a code of another scope, with NOT_FOUND', async () => {
      await expectDomainError(reserve('NO-SUCH-COUPON'), 'NOT_FOUND');
      const coupon = await create(merchant.testKey);
      await expectDomainError(reserve(coupon.code, { storeId: merchant.storeId, mode: 'live' }), 'NOT_FOUND');
      await expectDomainError(reserve(coupon.code, { storeId: rival.storeId, mode: 'test' }), 'NOT_FOUND');
      expect((await fetch(coupon.id)).redeemsCount).toBe(0);
    });

    it('release gives one redemption back and never goes below zero', async () => {
      const coupon = await create(merchant.testKey, { maxRedeems: 1 });
      await reserve(coupon.code);
      await expectDomainError(reserve(coupon.code), 'COUPON_UNAVAILABLE');
      await release(coupon.id);
      expect((await fetch(coupon.id)).redeemsCount).toBe(0);
      await release(coupon.id);
      await release(coupon.id);
      expect((await fetch(coupon.id)).redeemsCount).toBe(0);
      // The released redemption can be taken again.
      await reserve(coupon.code);
      expect((await fetch(coupon.id)).redeemsCount).toBe(1);
    });

    it('release in another scope changes nothing', async () => {
      const coupon = await create(merchant.testKey);
      await reserve(coupon.code);
      await release(coupon.id, { storeId: rival.storeId, mode: 'test' });
      await release(coupon.id, { storeId: merchant.storeId, mode: 'live' });
      expect((await fetch(coupon.id)).redeemsCount).toBe(1);
    });

    it('a reservation whose transaction fails afterwards rolls back', async () => {
      const coupon = await create(merchant.testKey, { maxRedeems: 1 });
      const failure = new Error('checkout insert failed');
      await expect(
        app.database.transaction(async (trx) => {
          await coupons.reserve(testScope, coupon.code, trx);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect((await fetch(coupon.id)).redeemsCount).toBe(0);
      expect(await exhaustedEvents(coupon.id)).toEqual([]);
      // The redemption is still available.
      await reserve(coupon.code);
      expect((await fetch(coupon.id)).redeemsCount).toBe(1);
    });

    it('CONCURRENCY: 20 parallel reservations of a 5-redemption coupon → exactly 5 succeed, one exhausted event', async () => {
      const coupon = await create(merchant.testKey, { maxRedeems: 5 });
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => reserve(coupon.code)));
      const fulfilled = results.filter((result) => result.status === 'fulfilled');
      const rejected = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      expect(fulfilled.length).toBe(5);
      expect(rejected.length).toBe(15);
      for (const result of rejected) {
        expect(result.reason).toBeInstanceOf(DomainError);
        expect((result.reason as DomainError).code).toBe('COUPON_UNAVAILABLE');
      }
      const row = await app.database.db.selectFrom('coupons').selectAll().where('id', '=', coupon.id).executeTakeFirstOrThrow();
      expect(row.redeems_count).toBe(5);
      expect((await fetch(coupon.id)).redeemsCount).toBe(5);
      expect((await exhaustedEvents(coupon.id)).length).toBe(1);
    });
  });

  describe('permissions (API.md §2.4)', () => {
    let target: Coupon;
    let readKey: string;
    let writeKey: string;
    let otherFamilyKey: string;

    beforeAll(async () => {
      target = await create(merchant.testKey);
      readKey = (await createKey(app, merchant.session, { permissions: ['coupons:read'] })).key;
      writeKey = (await createKey(app, merchant.session, { permissions: ['coupons:write'] })).key;
      otherFamilyKey = (await createKey(app, merchant.session, { permissions: ['customers:read', 'customers:write', 'products:read', 'products:write'] }))
        .key;
    });

    it('coupons:read lists and gets, but cannot create, update, toggle or delete', async () => {
      expectOk(await list(readKey));
      expectOk(await get(readKey, { id: target.id }));
      expectOk(await get(readKey, { code: target.code }));
      const fields = body();
      expectError(await post(readKey, 'create', fields), 403, 'FORBIDDEN');
      expectError(await post(readKey, 'update', { id: target.id, notes: 'x' }), 403, 'FORBIDDEN');
      expectError(await post(readKey, 'toggle', { id: target.id }), 403, 'FORBIDDEN');
      expectError(await post(readKey, 'delete', { id: target.id }), 403, 'FORBIDDEN');
      expect(await rowsWithCode(fields.code)).toEqual([]);
      expect(await fetch(target.id)).toEqual(target);
    });

    it('coupons:write creates, updates and toggles, but cannot list or get', async () => {
      expectOk(await post(writeKey, 'create', body()), 201);
      expectOk(await post(writeKey, 'update', { id: target.id, notes: 'by write key' }));
      expectOk(await post(writeKey, 'toggle', { id: target.id }));
      expectOk(await post(writeKey, 'toggle', { id: target.id }));
      expectError(await list(writeKey), 403, 'FORBIDDEN');
      expectError(await get(writeKey, { id: target.id }), 403, 'FORBIDDEN');
      expectError(await get(writeKey, { code: target.code }), 403, 'FORBIDDEN');
    });

    it('a key of other families gets 403 on every route', async () => {
      expectError(await list(otherFamilyKey), 403, 'FORBIDDEN');
      expectError(await get(otherFamilyKey, { id: target.id }), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'create', body()), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'update', { id: target.id, notes: 'x' }), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'toggle', { id: target.id }), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'delete', { id: target.id }), 403, 'FORBIDDEN');
    });

    it('no key is 401 UNAUTHENTICATED', async () => {
      expectError(await http().get('/v1/coupons/list'), 401, 'UNAUTHENTICATED');
      expectError(await http().get('/v1/coupons/get').query({ id: target.id }), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/coupons/create').send(body()), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/coupons/update').send({ id: target.id }), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/coupons/toggle').send({ id: target.id }), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/coupons/delete').send({ id: target.id }), 401, 'UNAUTHENTICATED');
    });
  });

  describe('isolation', () => {
    let target: Coupon;

    beforeAll(async () => {
      target = await create(merchant.testKey);
    });

    it("hides a merchant's coupons from another merchant (404, not listed)", async () => {
      expectError(await get(rival.testKey, { id: target.id }), 404, 'NOT_FOUND');
      expectError(await get(rival.testKey, { code: target.code }), 404, 'NOT_FOUND');
      expectError(await post(rival.testKey, 'update', { id: target.id, notes: 'hijack' }), 404, 'NOT_FOUND');
      expectError(await post(rival.testKey, 'toggle', { id: target.id }), 404, 'NOT_FOUND');
      expectError(await post(rival.testKey, 'delete', { id: target.id }), 404, 'NOT_FOUND');
      expect((await listAll(rival.testKey)).map((item) => item.id)).not.toContain(target.id);
      expect(await fetch(target.id)).toEqual(target);
    });

    it('hides test-mode coupons from the live key (404, not listed)', async () => {
      expectError(await get(liveKey, { id: target.id }), 404, 'NOT_FOUND');
      expectError(await get(liveKey, { code: target.code }), 404, 'NOT_FOUND');
      expectError(await post(liveKey, 'update', { id: target.id, notes: 'live' }), 404, 'NOT_FOUND');
      expectError(await post(liveKey, 'toggle', { id: target.id }), 404, 'NOT_FOUND');
      expectError(await post(liveKey, 'delete', { id: target.id }), 404, 'NOT_FOUND');
      const liveItems = await listAll(liveKey);
      expect(liveItems.length).toBeGreaterThan(0);
      expect(liveItems.map((item) => item.id)).not.toContain(target.id);
      for (const item of liveItems) expect(item.devMode).toBe(false);
      expect(await fetch(target.id)).toEqual(target);
    });
  });
});
