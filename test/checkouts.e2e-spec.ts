import type { OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { expectError, expectOk, expectValidationField } from './support/assertions';
import { ChargeExpiryService } from '../src/modules/charges/charge-expiry.service';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Checkouts — API.md §9 intro and §9.1, with §1 (envelope, lists, idempotency), §6 (ledger and balances),
 * §7 (fees), §10 (sandbox) and §13 (event type names). Events are read from the `events` table and money
 * movements from `ledger_entries`, so every count below is exact.
 *
 * Fees are computed by hand (API.md §7; percentage part rounded half up):
 *   PIX 80 · BOLETO 250 · CARD 1x 3.50 % + 60
 *   CARD 7480 → 261.8 → 262 + 60 = 322 · CARD 300 → 10.5 → 11 + 60 = 71 · CARD 100 → 3.5 → 4 + 60 = 64
 */
jest.setTimeout(60_000);

const CHECKOUT_ID = /^bill_[0-9A-Z]{26}$/;
const EVENT_ID = /^evt_[0-9A-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PAST = '2020-01-01T00:00:00.000Z';
const MISSING_CHECKOUT = 'bill_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const MISSING_CUSTOMER = 'cust_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const CHECKOUT_FIELDS = [
  'amount',
  'cancelledAt',
  'completionUrl',
  'coupon',
  'createdAt',
  'customerId',
  'devMode',
  'discount',
  'expiresAt',
  'externalId',
  'fee',
  'id',
  'installments',
  'items',
  'metadata',
  'method',
  'methods',
  'netAmount',
  'paidAt',
  'paymentLinkId',
  'refundedAt',
  'returnUrl',
  'status',
  'subtotal',
  'updatedAt',
  'url',
];

type Method = 'PIX' | 'CARD' | 'BOLETO';
interface Checkout {
  id: string;
  url: string;
  status: string;
  items: Array<{ productId: string; name: string; quantity: number; unitPrice: number }>;
  subtotal: number;
  discount: number;
  amount: number;
  methods: Method[];
  method: Method | null;
  installments: number;
  fee: number | null;
  netAmount: number | null;
  customerId: string | null;
  coupon: string | null;
  externalId: string | null;
  returnUrl: string | null;
  completionUrl: string | null;
  paymentLinkId: string | null;
  expiresAt: string;
  paidAt: string | null;
  refundedAt: string | null;
  cancelledAt: string | null;
  metadata: Record<string, string>;
  devMode: boolean;
  createdAt: string;
  updatedAt: string;
}
interface Balance {
  available: number;
  pending: number;
  blocked: number;
}

/** A valid CPF from 9 base digits (mod-11 check digits), so fixtures never collide across runs. */
function cpfFrom(base9: string): string {
  const digits = base9.split('').map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, digit, index) => acc + digit * (length + 1 - index), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}
let cpfCounter = 0;
const uniqueCpf = () => {
  cpfCounter += 1;
  return cpfFrom(`${String(Date.now() % 100_000).padStart(5, '0')}${String(cpfCounter).padStart(4, '0')}`);
};
const punctuate = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

describe('Checkouts — /v1/checkouts (API.md §9.1)', () => {
  let app: TestApp;
  let merchant: RegisteredMerchant;
  let rival: RegisteredMerchant;
  let liveKey: string;
  let sweeper: ChargeExpiryService;

  const http = () => app.http();
  const db = () => app.database.db;
  const post = (key: string, route: string, body: unknown, headers: Record<string, string> = {}) =>
    http()
      .post(`/v1/checkouts/${route}`)
      .set(bearer(key))
      .set(headers)
      .send(body as object);
  const getCheckout = (key: string, id: string) => http().get('/v1/checkouts/get').query({ id }).set(bearer(key));
  const list = (key: string, query: Record<string, string | number> = {}) =>
    http().get('/v1/checkouts/list').query(query).set(bearer(key));

  let counter = 0;
  const unique = (label: string) => {
    counter += 1;
    return `${label}-${counter}-${Date.now() % 1_000_000}`;
  };

  const createProduct = async (key: string, fields: Record<string, unknown> = {}) => {
    const response = await http()
      .post('/v1/products/create')
      .set(bearer(key))
      .send({ externalId: unique('sku'), name: 'Produto', price: 1000, ...fields });
    expectOk(response, 201);
    return response.body.data as { id: string; name: string; price: number };
  };
  const createCoupon = async (key: string, fields: Record<string, unknown> = {}) => {
    const response = await http()
      .post('/v1/coupons/create')
      .set(bearer(key))
      .send({ code: unique('CUPOM').toUpperCase(), discountKind: 'PERCENTAGE', discount: 10, ...fields });
    expectOk(response, 201);
    return response.body.data as { id: string; code: string };
  };
  const redeemsOf = async (key: string, couponId: string): Promise<number> => {
    const response = await http().get('/v1/coupons/get').query({ id: couponId }).set(bearer(key));
    expectOk(response);
    return response.body.data.redeemsCount;
  };
  const create = async (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Checkout> => {
    const response = await post(key, 'create', body, headers);
    expectOk(response, 201);
    return response.body.data;
  };
  /** A PENDING checkout of `amount` (one product of that price) in the merchant's sandbox. */
  const checkoutOf = async (key: string, amount: number, fields: Record<string, unknown> = {}): Promise<Checkout> => {
    const product = await createProduct(key, { price: amount });
    return create(key, { items: [{ productId: product.id, quantity: 1 }], ...fields });
  };
  const fetch = async (key: string, id: string): Promise<Checkout> => {
    const response = await getCheckout(key, id);
    expectOk(response);
    return response.body.data;
  };
  const pay = async (key: string, id: string, method?: Method): Promise<Checkout> => {
    const response = await post(key, 'simulate-payment', method === undefined ? { id } : { id, method });
    expectOk(response);
    return response.body.data;
  };
  const balanceOf = async (key: string): Promise<Balance> => {
    const response = await http().get('/v1/stores/list').set(bearer(key));
    expectOk(response);
    return response.body.data.items[0].balance;
  };
  const ledgerRows = (sourceId: string) =>
    db().selectFrom('ledger_entries').selectAll().where('source_id', '=', sourceId).orderBy('id').execute();
  /** Events of `type` whose object is `objectId`. */
  const eventsOf = async (objectId: string, type: string) => {
    const rows = await db().selectFrom('events').selectAll().where('type', '=', type).where('data', 'like', `%${objectId}%`).execute();
    return rows
      .map((row) => ({ ...row, parsed: JSON.parse(row.data) as { object: Record<string, unknown> } }))
      .filter((row) => row.parsed.object.id === objectId);
  };
  const checkoutEvents = async (objectId: string) => {
    const rows = await db().selectFrom('events').select(['type', 'data']).where('data', 'like', `%${objectId}%`).execute();
    return rows
      .filter((row) => (JSON.parse(row.data) as { object: { id: string } }).object.id === objectId)
      .map((row) => row.type)
      .sort();
  };
  const chargeCount = async (storeId: string): Promise<number> => {
    const row = await db()
      .selectFrom('charges')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('store_id', '=', storeId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const customerCount = async (storeId: string): Promise<number> => {
    const row = await db()
      .selectFrom('customers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('store_id', '=', storeId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const expireInDb = (id: string) => db().updateTable('charges').set({ expires_at: PAST }).where('id', '=', id).execute();
  const statusInDb = async (id: string) =>
    (await db().selectFrom('charges').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const listAll = async (key: string, query: Record<string, string> = {}): Promise<Checkout[]> => {
    const items: Checkout[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 100; guard += 1) {
      const response = await list(key, { ...query, limit: 100, ...(after ? { after } : {}) });
      expectOk(response);
      items.push(...response.body.data.items);
      after = response.body.data.next;
      if (after === null) return items;
    }
    throw new Error('too many pages');
  };

  beforeAll(async () => {
    app = await startTestApp();
    merchant = await registerMerchant(app, 'Loja A');
    rival = await registerMerchant(app, 'Loja B');
    liveKey = (await createKey(app, merchant.session, { mode: 'live', permissions: ['*'] })).key;
    sweeper = app.app.get(ChargeExpiryService);
    // Stop the periodic sweep (its shutdown/destroy hook clears the timer) so that every expiry in this
    // file happens on read or on an explicit sweep(), and sweep()'s count is exact.
    const hooks = sweeper as Partial<OnModuleDestroy & OnApplicationShutdown>;
    const stopTimer = hooks.onModuleDestroy ?? hooks.onApplicationShutdown;
    expect(stopTimer).toBeInstanceOf(Function);
    await stopTimer?.call(sweeper);
  });
  afterAll(() => app?.close());

  describe('create', () => {
    it('prices the items from the catalogue, copies name and unit price, and records checkout.created', async () => {
      const shirt = await createProduct(merchant.testKey, { name: 'Camiseta', price: 2990 });
      const mug = await createProduct(merchant.testKey, { name: 'Caneca', price: 1500 });
      const response = await post(merchant.testKey, 'create', {
        items: [
          { productId: shirt.id, quantity: 2 },
          { productId: mug.id, quantity: 1 },
        ],
      });
      expectOk(response, 201);
      const checkout: Checkout = response.body.data;
      expect(Object.keys(checkout).sort()).toEqual(CHECKOUT_FIELDS);
      expect(checkout).toMatchObject({
        status: 'PENDING',
        items: [
          { productId: shirt.id, name: 'Camiseta', quantity: 2, unitPrice: 2990 },
          { productId: mug.id, name: 'Caneca', quantity: 1, unitPrice: 1500 },
        ],
        subtotal: 7480,
        discount: 0,
        amount: 7480,
        methods: ['PIX', 'CARD'],
        method: null,
        fee: null,
        netAmount: null,
        customerId: null,
        coupon: null,
        externalId: null,
        returnUrl: null,
        completionUrl: null,
        paymentLinkId: null,
        paidAt: null,
        refundedAt: null,
        cancelledAt: null,
        metadata: {},
        devMode: true,
      });
      expect(checkout.id).toMatch(CHECKOUT_ID);
      expect(checkout.url).toBe(`http://localhost:3000/pay/${checkout.id}`);
      expect(checkout.createdAt).toMatch(ISO);
      expect(checkout.expiresAt).toMatch(ISO);
      // expiresIn defaults to 86400 seconds.
      const lifetime = Date.parse(checkout.expiresAt) - Date.parse(checkout.createdAt);
      expect(lifetime).toBeGreaterThanOrEqual(86_400_000);
      expect(lifetime).toBeLessThan(86_400_000 + 1000);

      // get returns the same object; checkout.created carries it.
      expect(await fetch(merchant.testKey, checkout.id)).toEqual(checkout);
      const created = await eventsOf(checkout.id, 'checkout.created');
      expect(created).toHaveLength(1);
      expect(created[0].id).toMatch(EVENT_ID);
      expect(created[0].store_id).toBe(merchant.storeId);
      expect(created[0].mode).toBe('test');
      expect(created[0].parsed).toEqual({ object: checkout });
      expect(await checkoutEvents(checkout.id)).toEqual(['checkout.created']);

      // The checkout keeps its copy when the catalogue changes.
      await http().post('/v1/products/update').set(bearer(merchant.testKey)).send({ id: shirt.id, price: 5000, name: 'Outro' }).expect(200);
      const again = await fetch(merchant.testKey, checkout.id);
      expect(again.items[0]).toEqual({ productId: shirt.id, name: 'Camiseta', quantity: 2, unitPrice: 2990 });
      expect(again.amount).toBe(7480);
    });

    it('stores externalId, URLs, metadata, methods and expiresIn as sent', async () => {
      const product = await createProduct(merchant.testKey, { price: 4000 });
      const checkout = await create(merchant.testKey, {
        items: [{ productId: product.id, quantity: 3 }],
        methods: ['BOLETO', 'PIX'],
        externalId: 'order-777',
        returnUrl: 'https://shop.example.com/cart',
        completionUrl: 'https://shop.example.com/thanks',
        expiresIn: 3600,
        metadata: { orderId: '777', channel: 'web' },
      });
      expect(checkout).toMatchObject({
        subtotal: 12_000,
        amount: 12_000,
        methods: ['BOLETO', 'PIX'],
        externalId: 'order-777',
        returnUrl: 'https://shop.example.com/cart',
        completionUrl: 'https://shop.example.com/thanks',
        metadata: { orderId: '777', channel: 'web' },
      });
      const lifetime = Date.parse(checkout.expiresAt) - Date.parse(checkout.createdAt);
      expect(lifetime).toBeGreaterThanOrEqual(3_600_000);
      expect(lifetime).toBeLessThan(3_600_000 + 1000);
    });

    it('accepts expiresIn from 300 to 2592000 seconds only', async () => {
      const product = await createProduct(merchant.testKey);
      const items = [{ productId: product.id, quantity: 1 }];
      const before = await chargeCount(merchant.storeId);
      expectValidationField(await post(merchant.testKey, 'create', { items, expiresIn: 299 }), 'expiresIn');
      expectValidationField(await post(merchant.testKey, 'create', { items, expiresIn: 2_592_001 }), 'expiresIn');
      expectValidationField(await post(merchant.testKey, 'create', { items, expiresIn: 600.5 }), 'expiresIn');
      expect(await chargeCount(merchant.storeId)).toBe(before);
      const shortest = await create(merchant.testKey, { items, expiresIn: 300 });
      expect(Date.parse(shortest.expiresAt) - Date.parse(shortest.createdAt)).toBeGreaterThanOrEqual(300_000);
      expect(Date.parse(shortest.expiresAt) - Date.parse(shortest.createdAt)).toBeLessThan(301_000);
      const longest = await create(merchant.testKey, { items, expiresIn: 2_592_000 });
      expect(Date.parse(longest.expiresAt) - Date.parse(longest.createdAt)).toBeGreaterThanOrEqual(2_592_000_000);
      expect(Date.parse(longest.expiresAt) - Date.parse(longest.createdAt)).toBeLessThan(2_592_001_000);
    });

    it('rejects bad methods and unknown fields', async () => {
      const product = await createProduct(merchant.testKey);
      const items = [{ productId: product.id, quantity: 1 }];
      const before = await chargeCount(merchant.storeId);
      expectValidationField(await post(merchant.testKey, 'create', { items, methods: ['CASH'] }), 'methods');
      expectValidationField(await post(merchant.testKey, 'create', { items, methods: [] }), 'methods');
      expectValidationField(await post(merchant.testKey, 'create', { items, methods: ['PIX', 'PIX'] }), 'methods');
      expectValidationField(await post(merchant.testKey, 'create', { items, amount: 5 }), 'amount');
      const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
      expectValidationField(await post(merchant.testKey, 'create', { items, metadata: tooMany }), 'metadata');
      expectValidationField(await post(merchant.testKey, 'create', { items, metadata: { nested: { a: 1 } } }), 'metadata');
      expectValidationField(await post(merchant.testKey, 'create', { items, returnUrl: 'ftp://x' }), 'returnUrl');
      expectValidationField(
        await post(merchant.testKey, 'create', { items: [{ productId: product.id, quantity: 1, price: 1 }] }),
        'items[0].price',
      );
      expect(await chargeCount(merchant.storeId)).toBe(before);
    });

    describe('items', () => {
      let good: { id: string };
      beforeAll(async () => {
        good = await createProduct(merchant.testKey, { price: 1000 });
      });

      const rejectsItem = async (productId: string, field = 'items[1].productId') => {
        const before = await chargeCount(merchant.storeId);
        const response = await post(merchant.testKey, 'create', {
          items: [
            { productId: good.id, quantity: 1 },
            { productId, quantity: 1 },
          ],
        });
        expectValidationField(response, field);
        expect(await chargeCount(merchant.storeId)).toBe(before);
      };

      it('rejects an INACTIVE product', async () => {
        const product = await createProduct(merchant.testKey);
        await http().post('/v1/products/update').set(bearer(merchant.testKey)).send({ id: product.id, status: 'INACTIVE' }).expect(200);
        await rejectsItem(product.id);
      });

      it('rejects a product with a cycle', async () => {
        const product = await createProduct(merchant.testKey, { cycle: 'MONTHLY' });
        await rejectsItem(product.id);
      });

      it('rejects a deleted product; an existing checkout keeps its copy of the item', async () => {
        const product = await createProduct(merchant.testKey, { name: 'Some', price: 1234 });
        const existing = await create(merchant.testKey, { items: [{ productId: product.id, quantity: 2 }] });
        await http().post('/v1/products/delete').set(bearer(merchant.testKey)).send({ id: product.id }).expect(200);
        await rejectsItem(product.id);
        const kept = await fetch(merchant.testKey, existing.id);
        expect(kept.items).toEqual([{ productId: product.id, name: 'Some', quantity: 2, unitPrice: 1234 }]);
        expect(await pay(merchant.testKey, existing.id)).toMatchObject({ status: 'PAID', amount: 2468, fee: 80, netAmount: 2388 });
      });

      it("rejects another store's product, a product of the other mode and an unknown id", async () => {
        const foreign = await createProduct(rival.testKey);
        await rejectsItem(foreign.id);
        const live = await createProduct(liveKey);
        await rejectsItem(live.id);
        await rejectsItem('prod_01JD2Z3M4N5P6Q7R8S9T0V1W2X');
      });

      it('takes 1–50 items of quantity 1–999', async () => {
        const before = await chargeCount(merchant.storeId);
        expectValidationField(await post(merchant.testKey, 'create', { items: [] }), 'items');
        expectValidationField(await post(merchant.testKey, 'create', {}), 'items');
        const many = Array.from({ length: 51 }, () => ({ productId: good.id, quantity: 1 }));
        expectValidationField(await post(merchant.testKey, 'create', { items: many }), 'items');
        expectValidationField(await post(merchant.testKey, 'create', { items: [{ productId: good.id, quantity: 0 }] }), 'items[0].quantity');
        expectValidationField(await post(merchant.testKey, 'create', { items: [{ productId: good.id, quantity: 1000 }] }), 'items[0].quantity');
        expectValidationField(await post(merchant.testKey, 'create', { items: [{ productId: good.id, quantity: 1.5 }] }), 'items[0].quantity');
        expect(await chargeCount(merchant.storeId)).toBe(before);

        const fifty = await create(merchant.testKey, { items: many.slice(0, 50) });
        expect(fifty.items).toHaveLength(50);
        expect(fifty.subtotal).toBe(50 * 1000);
        const bulk = await create(merchant.testKey, { items: [{ productId: good.id, quantity: 999 }] });
        expect(bulk.amount).toBe(999_000);
      });
    });

    describe('coupons', () => {
      it('applies a PERCENTAGE coupon rounded half up and reserves a redemption; the code is case-insensitive', async () => {
        const product = await createProduct(merchant.testKey, { price: 2990 });
        const coupon = await createCoupon(merchant.testKey, { code: unique('PCT').toUpperCase(), discountKind: 'PERCENTAGE', discount: 15 });
        const checkout = await create(merchant.testKey, {
          items: [{ productId: product.id, quantity: 1 }],
          coupon: coupon.code.toLowerCase(),
        });
        // 15 % of 2990 = 448.5 → 449.
        expect(checkout).toMatchObject({ subtotal: 2990, discount: 449, amount: 2541, coupon: coupon.code });
        expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(1);
      });

      it('applies a FIXED coupon', async () => {
        const product = await createProduct(merchant.testKey, { price: 2990 });
        const coupon = await createCoupon(merchant.testKey, { discountKind: 'FIXED', discount: 1000 });
        const checkout = await create(merchant.testKey, { items: [{ productId: product.id, quantity: 2 }], coupon: coupon.code });
        expect(checkout).toMatchObject({ subtotal: 5980, discount: 1000, amount: 4980, coupon: coupon.code });
        expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(1);
      });

      it('answers 404 for an unknown coupon and creates nothing', async () => {
        const product = await createProduct(merchant.testKey);
        const before = await chargeCount(merchant.storeId);
        const response = await post(merchant.testKey, 'create', { items: [{ productId: product.id, quantity: 1 }], coupon: 'NO-SUCH-COUPON' });
        expectError(response, 404, 'NOT_FOUND');
        // Another store's coupon is unknown too.
        const foreign = await createCoupon(rival.testKey);
        expectError(await post(merchant.testKey, 'create', { items: [{ productId: product.id, quantity: 1 }], coupon: foreign.code }), 404, 'NOT_FOUND');
        expect(await redeemsOf(rival.testKey, foreign.id)).toBe(0);
        expect(await chargeCount(merchant.storeId)).toBe(before);
      });

      it('answers 409 COUPON_UNAVAILABLE for a used-up coupon and creates nothing', async () => {
        const product = await createProduct(merchant.testKey);
        const coupon = await createCoupon(merchant.testKey, { maxRedeems: 1 });
        await create(merchant.testKey, { items: [{ productId: product.id, quantity: 1 }], coupon: coupon.code });
        const before = await chargeCount(merchant.storeId);
        const response = await post(merchant.testKey, 'create', { items: [{ productId: product.id, quantity: 1 }], coupon: coupon.code });
        expectError(response, 409, 'COUPON_UNAVAILABLE');
        expect(await chargeCount(merchant.storeId)).toBe(before);
        expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(1);
      });

      it('answers 409 COUPON_UNAVAILABLE for an expired coupon and creates nothing', async () => {
        const product = await createProduct(merchant.testKey);
        const coupon = await createCoupon(merchant.testKey);
        await db().updateTable('coupons').set({ expires_at: PAST }).where('id', '=', coupon.id).execute();
        const before = await chargeCount(merchant.storeId);
        const response = await post(merchant.testKey, 'create', { items: [{ productId: product.id, quantity: 1 }], coupon: coupon.code });
        expectError(response, 409, 'COUPON_UNAVAILABLE');
        expect(await chargeCount(merchant.storeId)).toBe(before);
        expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(0);
      });

      it('answers 409 COUPON_UNAVAILABLE for an inactive coupon and creates nothing', async () => {
        const product = await createProduct(merchant.testKey);
        const coupon = await createCoupon(merchant.testKey);
        await http().post('/v1/coupons/toggle').set(bearer(merchant.testKey)).send({ id: coupon.id }).expect(200);
        const before = await chargeCount(merchant.storeId);
        const response = await post(merchant.testKey, 'create', { items: [{ productId: product.id, quantity: 1 }], coupon: coupon.code });
        expectError(response, 409, 'COUPON_UNAVAILABLE');
        expect(await chargeCount(merchant.storeId)).toBe(before);
        expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(0);
      });
    });

    describe('minimum amounts', () => {
      it('refuses an amount below the minimum of any offered method (AMOUNT_BELOW_MINIMUM)', async () => {
        const cheap = await createProduct(merchant.testKey, { price: 299 });
        const items = [{ productId: cheap.id, quantity: 1 }];
        const before = await chargeCount(merchant.storeId);
        expectError(await post(merchant.testKey, 'create', { items, methods: ['BOLETO'] }), 400, 'AMOUNT_BELOW_MINIMUM');
        expectError(await post(merchant.testKey, 'create', { items, methods: ['PIX', 'BOLETO'] }), 400, 'AMOUNT_BELOW_MINIMUM');
        expect(await chargeCount(merchant.storeId)).toBe(before);
        expect((await create(merchant.testKey, { items, methods: ['PIX', 'CARD'] })).amount).toBe(299);
        const exact = await createProduct(merchant.testKey, { price: 300 });
        expect((await create(merchant.testKey, { items: [{ productId: exact.id, quantity: 1 }], methods: ['BOLETO'] })).amount).toBe(300);
      });

      it('checks the amount after the discount, and a refused amount gives the coupon back', async () => {
        const product = await createProduct(merchant.testKey, { price: 1000 });
        const items = [{ productId: product.id, quantity: 1 }];
        const coupon = await createCoupon(merchant.testKey, { discountKind: 'FIXED', discount: 750 });
        const before = await chargeCount(merchant.storeId);
        expectError(await post(merchant.testKey, 'create', { items, methods: ['PIX', 'BOLETO'], coupon: coupon.code }), 400, 'AMOUNT_BELOW_MINIMUM');
        expect(await chargeCount(merchant.storeId)).toBe(before);
        expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(0);

        // A discount larger than the subtotal leaves 0: below every minimum.
        const huge = await createCoupon(merchant.testKey, { discountKind: 'FIXED', discount: 5000 });
        expectError(await post(merchant.testKey, 'create', { items, coupon: huge.code }), 400, 'AMOUNT_BELOW_MINIMUM');
        expect(await redeemsOf(merchant.testKey, huge.id)).toBe(0);

        const ok = await create(merchant.testKey, { items, methods: ['PIX'], coupon: coupon.code });
        expect(ok).toMatchObject({ subtotal: 1000, discount: 750, amount: 250 });
        expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(1);
      });
    });

    describe('customer', () => {
      it('links an existing customer by id; an unknown or foreign id is a 400', async () => {
        const product = await createProduct(merchant.testKey);
        const items = [{ productId: product.id, quantity: 1 }];
        const customer = (
          await http().post('/v1/customers/create').set(bearer(merchant.testKey)).send({ email: 'ana@example.com', name: 'Ana' }).expect(201)
        ).body.data;
        const checkout = await create(merchant.testKey, { items, customerId: customer.id });
        expect(checkout.customerId).toBe(customer.id);

        const before = await chargeCount(merchant.storeId);
        expectValidationField(await post(merchant.testKey, 'create', { items, customerId: MISSING_CUSTOMER }), 'customerId');
        const foreign = (
          await http().post('/v1/customers/create').set(bearer(rival.testKey)).send({ email: 'bia@example.com' }).expect(201)
        ).body.data;
        expectValidationField(await post(merchant.testKey, 'create', { items, customerId: foreign.id }), 'customerId');
        expect(await chargeCount(merchant.storeId)).toBe(before);
      });

      it('finds an inline customer by taxId or creates it; customerId and customer together are a 400', async () => {
        const product = await createProduct(merchant.testKey);
        const items = [{ productId: product.id, quantity: 1 }];
        const cpf = uniqueCpf();
        const existing = (
          await http().post('/v1/customers/create').set(bearer(merchant.testKey)).send({ email: 'caio@example.com', name: 'Caio', taxId: cpf }).expect(201)
        ).body.data;

        const customersBefore = await customerCount(merchant.storeId);
        const found = await create(merchant.testKey, {
          items,
          customer: { name: 'Caio S.', email: 'other@example.com', taxId: punctuate(cpf) },
        });
        expect(found.customerId).toBe(existing.id);
        expect(await customerCount(merchant.storeId)).toBe(customersBefore);

        const newCpf = uniqueCpf();
        const createdCheckout = await create(merchant.testKey, {
          items,
          customer: { name: 'Duda', email: 'Duda@Example.com', taxId: punctuate(newCpf), cellphone: '+55 11 91234-5678' },
        });
        expect(createdCheckout.customerId).not.toBeNull();
        expect(createdCheckout.customerId).not.toBe(existing.id);
        expect(await customerCount(merchant.storeId)).toBe(customersBefore + 1);
        const newCustomer = (
          await http().get('/v1/customers/get').query({ id: createdCheckout.customerId as string }).set(bearer(merchant.testKey)).expect(200)
        ).body.data;
        expect(newCustomer).toMatchObject({ name: 'Duda', email: 'duda@example.com', taxId: newCpf });

        const before = await chargeCount(merchant.storeId);
        const both = await post(merchant.testKey, 'create', {
          items,
          customerId: existing.id,
          customer: { name: 'Caio', email: 'caio@example.com', taxId: cpf },
        });
        expectError(both, 400, 'VALIDATION_ERROR');
        expect(await chargeCount(merchant.storeId)).toBe(before);
        expectValidationField(
          await post(merchant.testKey, 'create', { items, customer: { name: 'X', email: 'not-an-email', taxId: cpf } }),
          'customer.email',
        );
      });
    });

    it('marks sandbox checkouts devMode true and live ones false', async () => {
      const liveProduct = await createProduct(liveKey, { price: 2000 });
      const live = await create(liveKey, { items: [{ productId: liveProduct.id, quantity: 1 }] });
      expect(live.devMode).toBe(false);
      expect(live.status).toBe('PENDING');
      const created = await eventsOf(live.id, 'checkout.created');
      expect(created).toHaveLength(1);
      expect(created[0].mode).toBe('live');
      const sandbox = await checkoutOf(merchant.testKey, 2000);
      expect(sandbox.devMode).toBe(true);
    });
  });

  describe('list and get', () => {
    let owner: RegisteredMerchant;
    let created: Checkout[];
    let customerId: string;

    beforeAll(async () => {
      owner = await registerMerchant(app, 'Loja Lista');
      const product = await createProduct(owner.testKey, { price: 1000 });
      customerId = (await http().post('/v1/customers/create').set(bearer(owner.testKey)).send({ email: 'list@example.com' }).expect(201)).body.data.id;
      created = [];
      for (let i = 0; i < 5; i += 1) {
        created.push(
          await create(owner.testKey, {
            items: [{ productId: product.id, quantity: i + 1 }],
            externalId: i === 2 ? 'order-special' : `order-${i}`,
            ...(i % 2 === 0 ? { customerId } : {}),
          }),
        );
      }
      await pay(owner.testKey, created[1].id);
      await pay(owner.testKey, created[3].id);
    });

    it('pages newest first with limit and after', async () => {
      const first = await list(owner.testKey, { limit: 2 });
      expectOk(first);
      expect(first.body.data.items.map((c: Checkout) => c.id)).toEqual([created[4].id, created[3].id]);
      expect(first.body.data.hasMore).toBe(true);
      expect(typeof first.body.data.next).toBe('string');
      const second = await list(owner.testKey, { limit: 2, after: first.body.data.next });
      expect(second.body.data.items.map((c: Checkout) => c.id)).toEqual([created[2].id, created[1].id]);
      expect(second.body.data.hasMore).toBe(true);
      const third = await list(owner.testKey, { limit: 2, after: second.body.data.next });
      expect(third.body.data.items.map((c: Checkout) => c.id)).toEqual([created[0].id]);
      expect(third.body.data).toMatchObject({ hasMore: false, next: null });

      const all = await list(owner.testKey);
      expect(all.body.data.items).toHaveLength(5);
      expect(all.body.data.items[0]).toEqual(await fetch(owner.testKey, created[4].id));
      expectValidationField(await list(owner.testKey, { limit: 0 }), 'limit');
      expectValidationField(await list(owner.testKey, { limit: 101 }), 'limit');
      expectValidationField(await list(owner.testKey, { after: 'garbage!' }), 'after');
    });

    it('filters by status, externalId and customerId', async () => {
      const ids = async (query: Record<string, string>) => (await listAll(owner.testKey, query)).map((c) => c.id);
      expect(await ids({ status: 'PAID' })).toEqual([created[3].id, created[1].id]);
      expect(await ids({ status: 'PENDING' })).toEqual([created[4].id, created[2].id, created[0].id]);
      expect(await ids({ status: 'REFUNDED' })).toEqual([]);
      expect(await ids({ externalId: 'order-special' })).toEqual([created[2].id]);
      expect(await ids({ externalId: 'nothing' })).toEqual([]);
      expect(await ids({ customerId })).toEqual([created[4].id, created[2].id, created[0].id]);
      expect(await ids({ customerId, status: 'PENDING', externalId: 'order-4' })).toEqual([created[4].id]);
      expectValidationField(await list(owner.testKey, { status: 'WHATEVER' }), 'status');
    });

    it("answers 404 for an unknown id and for another merchant's id on every route", async () => {
      const mine = created[0].id;
      expectError(await getCheckout(owner.testKey, MISSING_CHECKOUT), 404, 'NOT_FOUND');
      expectError(await getCheckout(rival.testKey, mine), 404, 'NOT_FOUND');
      for (const route of ['cancel', 'refund', 'simulate-payment', 'simulate-expiration']) {
        expectError(await post(rival.testKey, route, { id: mine }), 404, 'NOT_FOUND');
      }
      expect(await listAll(rival.testKey, { externalId: 'order-special' })).toEqual([]);
      expect((await fetch(owner.testKey, mine)).status).toBe('PENDING');
      expectValidationField(await http().get('/v1/checkouts/get').set(bearer(owner.testKey)), 'id');
    });

    it('answers 404 to a live key for a sandbox id, and lists only its own mode', async () => {
      const ownerLive = (await createKey(app, owner.session, { mode: 'live', permissions: ['*'] })).key;
      const target = created[2].id;
      expectError(await getCheckout(ownerLive, target), 404, 'NOT_FOUND');
      expectError(await post(ownerLive, 'cancel', { id: target }), 404, 'NOT_FOUND');
      expectError(await post(ownerLive, 'refund', { id: created[1].id }), 404, 'NOT_FOUND');
      const liveList = await list(ownerLive);
      expectOk(liveList);
      expect(liveList.body.data.items).toEqual([]);
      expect((await fetch(owner.testKey, target)).status).toBe('PENDING');
      expect((await fetch(owner.testKey, created[1].id)).status).toBe('PAID');
    });

    it('needs checkouts:read to read and checkouts:write to change', async () => {
      const reader = (await createKey(app, owner.session, { permissions: ['checkouts:read'] })).key;
      const writer = (await createKey(app, owner.session, { permissions: ['checkouts:write'] })).key;
      const other = (await createKey(app, owner.session, { permissions: ['products:read', 'products:write', 'coupons:write'] })).key;
      const product = await createProduct(owner.testKey);
      const items = [{ productId: product.id, quantity: 1 }];
      const target = created[0].id;

      expectOk(await list(reader));
      expectOk(await getCheckout(reader, target));
      const before = await chargeCount(owner.storeId);
      expectError(await post(reader, 'create', { items }), 403, 'FORBIDDEN');
      for (const route of ['cancel', 'refund', 'simulate-payment', 'simulate-expiration']) {
        expectError(await post(reader, route, { id: target }), 403, 'FORBIDDEN');
      }
      expect(await chargeCount(owner.storeId)).toBe(before);
      expect((await fetch(owner.testKey, target)).status).toBe('PENDING');

      expectError(await list(writer), 403, 'FORBIDDEN');
      expectError(await getCheckout(writer, target), 403, 'FORBIDDEN');
      const written = await post(writer, 'create', { items });
      expectOk(written, 201);
      expectOk(await post(writer, 'simulate-payment', { id: written.body.data.id }));
      expect((await fetch(owner.testKey, written.body.data.id)).status).toBe('PAID');

      expectError(await list(other), 403, 'FORBIDDEN');
      expectError(await post(other, 'create', { items }), 403, 'FORBIDDEN');
      expectError(await getCheckout(other, target), 403, 'FORBIDDEN');
    });
  });

  describe('simulate-payment', () => {
    let payer: RegisteredMerchant;
    beforeAll(async () => {
      payer = await registerMerchant(app, 'Loja Pagamentos');
    });

    it('pays with the first method by default: PAID, fee and netAmount per §7, credited to available, ledger row and event', async () => {
      const shirt = await createProduct(payer.testKey, { price: 2990 });
      const mug = await createProduct(payer.testKey, { price: 1500 });
      const checkout = await create(payer.testKey, {
        items: [
          { productId: shirt.id, quantity: 2 },
          { productId: mug.id, quantity: 1 },
        ],
      });
      expect(await balanceOf(payer.testKey)).toEqual({ available: 0, pending: 0, blocked: 0 });
      const response = await post(payer.testKey, 'simulate-payment', { id: checkout.id });
      expectOk(response);
      const paid: Checkout = response.body.data;
      expect(paid).toMatchObject({ id: checkout.id, status: 'PAID', method: 'PIX', fee: 80, netAmount: 7400, amount: 7480, refundedAt: null });
      expect(paid.paidAt).toMatch(ISO);
      expect(Date.parse(paid.paidAt as string)).toBeGreaterThanOrEqual(Date.parse(checkout.createdAt));
      expect(await fetch(payer.testKey, checkout.id)).toEqual(paid);

      expect(await balanceOf(payer.testKey)).toEqual({ available: 7400, pending: 0, blocked: 0 });
      const rows = await ledgerRows(checkout.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ type: 'payment', amount: 7400, bucket: 'available', source_id: checkout.id, store_id: payer.storeId, mode: 'test' });

      const events = await eventsOf(checkout.id, 'checkout.paid');
      expect(events).toHaveLength(1);
      expect(events[0].parsed.object.status).toBe('PAID');
      expect(events[0].parsed).toEqual({ object: paid });
      expect(await checkoutEvents(checkout.id)).toEqual(['checkout.created', 'checkout.paid']);

      const transactions = (await http().get('/v1/stores/transactions').set(bearer(payer.testKey)).expect(200)).body.data.items;
      expect(transactions).toEqual([
        { id: rows[0].id, type: 'payment', amount: 7400, bucket: 'available', sourceId: checkout.id, createdAt: expect.stringMatching(ISO) },
      ]);
    });

    it('pays by CARD at 1x: 3.50 % + 60 rounded half up', async () => {
      const before = (await balanceOf(payer.testKey)).available;
      const big = await checkoutOf(payer.testKey, 7480);
      expect(await pay(payer.testKey, big.id, 'CARD')).toMatchObject({ status: 'PAID', method: 'CARD', installments: 1, fee: 322, netAmount: 7158 });
      const half = await checkoutOf(payer.testKey, 300);
      expect(await pay(payer.testKey, half.id, 'CARD')).toMatchObject({ fee: 71, netAmount: 229 });
      const smallest = await checkoutOf(payer.testKey, 100);
      expect(await pay(payer.testKey, smallest.id, 'CARD')).toMatchObject({ fee: 64, netAmount: 36 });
      expect((await balanceOf(payer.testKey)).available).toBe(before + 7158 + 229 + 36);
      for (const [id, net] of [
        [big.id, 7158],
        [half.id, 229],
        [smallest.id, 36],
      ] as const) {
        expect((await ledgerRows(id)).map((row) => [row.type, row.amount])).toEqual([['payment', net]]);
      }
    });

    it('pays by BOLETO (fee 250) when it is the first method', async () => {
      const before = (await balanceOf(payer.testKey)).available;
      const checkout = await checkoutOf(payer.testKey, 7480, { methods: ['BOLETO', 'PIX'] });
      expect(await pay(payer.testKey, checkout.id)).toMatchObject({ method: 'BOLETO', fee: 250, netAmount: 7230 });
      expect((await balanceOf(payer.testKey)).available).toBe(before + 7230);
    });

    it('refuses a method the checkout does not offer, and an unknown method', async () => {
      const checkout = await checkoutOf(payer.testKey, 5000);
      const before = await balanceOf(payer.testKey);
      expectValidationField(await post(payer.testKey, 'simulate-payment', { id: checkout.id, method: 'BOLETO' }), 'method');
      expectValidationField(await post(payer.testKey, 'simulate-payment', { id: checkout.id, method: 'CASH' }), 'method');
      expectValidationField(await post(payer.testKey, 'simulate-payment', { id: checkout.id, method: 'pix', extra: 1 }), 'extra');
      expect((await fetch(payer.testKey, checkout.id)).status).toBe('PENDING');
      expect(await ledgerRows(checkout.id)).toHaveLength(0);
      expect(await balanceOf(payer.testKey)).toEqual(before);
      expect(await checkoutEvents(checkout.id)).toEqual(['checkout.created']);
    });

    it('answers 409 INVALID_STATE for a PAID, EXPIRED or CANCELLED checkout', async () => {
      const paid = await checkoutOf(payer.testKey, 1000);
      await pay(payer.testKey, paid.id);
      const expired = await checkoutOf(payer.testKey, 1000);
      expectOk(await post(payer.testKey, 'simulate-expiration', { id: expired.id }));
      const cancelled = await checkoutOf(payer.testKey, 1000);
      expectOk(await post(payer.testKey, 'cancel', { id: cancelled.id }));
      const before = await balanceOf(payer.testKey);

      for (const [checkout, status] of [
        [paid, 'PAID'],
        [expired, 'EXPIRED'],
        [cancelled, 'CANCELLED'],
      ] as const) {
        expectError(await post(payer.testKey, 'simulate-payment', { id: checkout.id }), 409, 'INVALID_STATE');
        expect((await fetch(payer.testKey, checkout.id)).status).toBe(status);
      }
      expect(await balanceOf(payer.testKey)).toEqual(before);
      expect(await ledgerRows(paid.id)).toHaveLength(1);
      expect(await ledgerRows(expired.id)).toHaveLength(0);
      expect(await eventsOf(paid.id, 'checkout.paid')).toHaveLength(1);
      expect(await eventsOf(expired.id, 'checkout.paid')).toHaveLength(0);
      expect(await eventsOf(cancelled.id, 'checkout.paid')).toHaveLength(0);
    });

    it('answers 403 SANDBOX_ONLY to a live key (simulate-payment and simulate-expiration)', async () => {
      const liveProduct = await createProduct(liveKey, { price: 1000 });
      const live = await create(liveKey, { items: [{ productId: liveProduct.id, quantity: 1 }] });
      expectError(await post(liveKey, 'simulate-payment', { id: live.id }), 403, 'SANDBOX_ONLY');
      expectError(await post(liveKey, 'simulate-expiration', { id: live.id }), 403, 'SANDBOX_ONLY');
      expect((await fetch(liveKey, live.id)).status).toBe('PENDING');
      expect(await checkoutEvents(live.id)).toEqual(['checkout.created']);
      expect(await ledgerRows(live.id)).toHaveLength(0);
      expect(await balanceOf(liveKey)).toEqual({ available: 0, pending: 0, blocked: 0 });
      // The live key can still cancel its own checkout (not a simulation).
      const cancelled = await post(liveKey, 'cancel', { id: live.id });
      expectOk(cancelled);
      expect(cancelled.body.data.status).toBe('CANCELLED');
    });
  });

  describe('expiration and cancel', () => {
    it('simulate-expiration: PENDING → EXPIRED, checkout.expired, coupon released', async () => {
      const coupon = await createCoupon(merchant.testKey);
      const first = await checkoutOf(merchant.testKey, 2000, { coupon: coupon.code });
      await checkoutOf(merchant.testKey, 2000, { coupon: coupon.code });
      expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(2);
      const response = await post(merchant.testKey, 'simulate-expiration', { id: first.id });
      expectOk(response);
      expect(response.body.data).toMatchObject({ id: first.id, status: 'EXPIRED', paidAt: null, fee: null });
      expect(await fetch(merchant.testKey, first.id)).toEqual(response.body.data);
      expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(1);
      const events = await eventsOf(first.id, 'checkout.expired');
      expect(events).toHaveLength(1);
      expect(events[0].parsed).toEqual({ object: response.body.data });
      expect(await ledgerRows(first.id)).toHaveLength(0);

      expectError(await post(merchant.testKey, 'simulate-expiration', { id: first.id }), 409, 'INVALID_STATE');
      const paid = await checkoutOf(merchant.testKey, 2000);
      await pay(merchant.testKey, paid.id);
      expectError(await post(merchant.testKey, 'simulate-expiration', { id: paid.id }), 409, 'INVALID_STATE');
      expect((await fetch(merchant.testKey, paid.id)).status).toBe('PAID');
      expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(1);
      expect(await eventsOf(first.id, 'checkout.expired')).toHaveLength(1);
      expect(await eventsOf(paid.id, 'checkout.expired')).toHaveLength(0);
    });

    it('cancel: PENDING → CANCELLED with cancelledAt, checkout.cancelled, coupon released; other states 409', async () => {
      const coupon = await createCoupon(merchant.testKey);
      const target = await checkoutOf(merchant.testKey, 2000, { coupon: coupon.code });
      await checkoutOf(merchant.testKey, 2000, { coupon: coupon.code });
      expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(2);
      const response = await post(merchant.testKey, 'cancel', { id: target.id });
      expectOk(response);
      const cancelled: Checkout = response.body.data;
      expect(cancelled.status).toBe('CANCELLED');
      expect(cancelled.cancelledAt).toMatch(ISO);
      expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(1);
      const events = await eventsOf(target.id, 'checkout.cancelled');
      expect(events).toHaveLength(1);
      expect(events[0].parsed).toEqual({ object: cancelled });

      expectError(await post(merchant.testKey, 'cancel', { id: target.id }), 409, 'INVALID_STATE');
      expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(1);
      expect(await eventsOf(target.id, 'checkout.cancelled')).toHaveLength(1);

      const paid = await checkoutOf(merchant.testKey, 2000);
      await pay(merchant.testKey, paid.id);
      expectError(await post(merchant.testKey, 'cancel', { id: paid.id }), 409, 'INVALID_STATE');
      expect((await fetch(merchant.testKey, paid.id)).status).toBe('PAID');
      const expired = await checkoutOf(merchant.testKey, 2000);
      expectOk(await post(merchant.testKey, 'simulate-expiration', { id: expired.id }));
      expectError(await post(merchant.testKey, 'cancel', { id: expired.id }), 409, 'INVALID_STATE');
      expect(await eventsOf(paid.id, 'checkout.cancelled')).toHaveLength(0);
      expect(await eventsOf(expired.id, 'checkout.cancelled')).toHaveLength(0);
    });

    it('expires a due PENDING checkout on read, exactly once (event and coupon release)', async () => {
      const coupon = await createCoupon(merchant.testKey);
      const due = await checkoutOf(merchant.testKey, 2000, { coupon: coupon.code });
      const fresh = await checkoutOf(merchant.testKey, 2000, { coupon: coupon.code });
      expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(2);
      await expireInDb(due.id);

      const first = await fetch(merchant.testKey, due.id);
      expect(first.status).toBe('EXPIRED');
      const second = await fetch(merchant.testKey, due.id);
      expect(second).toEqual(first);
      expect(await eventsOf(due.id, 'checkout.expired')).toHaveLength(1);
      expect(await redeemsOf(merchant.testKey, coupon.id)).toBe(1);
      expect((await fetch(merchant.testKey, fresh.id)).status).toBe('PENDING');
      expect(await eventsOf(fresh.id, 'checkout.expired')).toHaveLength(0);
    });

    it('list shows a due checkout EXPIRED (and filters on the expired status)', async () => {
      const owner = await registerMerchant(app, 'Loja Expira');
      const coupon = await createCoupon(owner.testKey);
      const due = await checkoutOf(owner.testKey, 2000, { coupon: coupon.code });
      const fresh = await checkoutOf(owner.testKey, 2000);
      await expireInDb(due.id);
      const pending = await listAll(owner.testKey, { status: 'PENDING' });
      expect(pending.map((c) => c.id)).toEqual([fresh.id]);
      const all = await listAll(owner.testKey);
      expect(all.map((c) => [c.id, c.status])).toEqual([
        [fresh.id, 'PENDING'],
        [due.id, 'EXPIRED'],
      ]);
      await listAll(owner.testKey);
      expect(await eventsOf(due.id, 'checkout.expired')).toHaveLength(1);
      expect(await redeemsOf(owner.testKey, coupon.id)).toBe(0);
    });

    it('sweep() expires the due checkouts of every store, once, and returns how many', async () => {
      const other = await registerMerchant(app, 'Loja Varredura');
      const coupon = await createCoupon(other.testKey);
      const mine = await checkoutOf(merchant.testKey, 2000);
      const theirs = await checkoutOf(other.testKey, 2000, { coupon: coupon.code });
      const notDue = await checkoutOf(other.testKey, 2000);
      await expireInDb(mine.id);
      await expireInDb(theirs.id);

      // Nothing else in this file is due (the periodic sweep is stopped in beforeAll): exactly these two.
      expect(await sweeper.sweep()).toBe(2);
      expect(await statusInDb(mine.id)).toBe('EXPIRED');
      expect(await statusInDb(theirs.id)).toBe('EXPIRED');
      expect(await statusInDb(notDue.id)).toBe('PENDING');
      const [myEvent, ...moreOfMine] = await eventsOf(mine.id, 'checkout.expired');
      expect(moreOfMine).toHaveLength(0);
      expect(myEvent.store_id).toBe(merchant.storeId);
      expect(myEvent.parsed.object).toMatchObject({ id: mine.id, status: 'EXPIRED' });
      const [theirEvent, ...moreOfTheirs] = await eventsOf(theirs.id, 'checkout.expired');
      expect(moreOfTheirs).toHaveLength(0);
      expect(theirEvent.store_id).toBe(other.storeId);
      expect(await redeemsOf(other.testKey, coupon.id)).toBe(0);

      // A second sweep finds nothing; reads afterwards change nothing either.
      expect(await sweeper.sweep()).toBe(0);
      expect((await fetch(other.testKey, theirs.id)).status).toBe('EXPIRED');
      expect(await eventsOf(mine.id, 'checkout.expired')).toHaveLength(1);
      expect(await eventsOf(theirs.id, 'checkout.expired')).toHaveLength(1);
    });

    it('a due PENDING checkout cannot be paid (409) and ends EXPIRED', async () => {
      const checkout = await checkoutOf(merchant.testKey, 2000);
      await expireInDb(checkout.id);
      const before = await balanceOf(merchant.testKey);
      expectError(await post(merchant.testKey, 'simulate-payment', { id: checkout.id }), 409, 'INVALID_STATE');
      expect((await fetch(merchant.testKey, checkout.id)).status).toBe('EXPIRED');
      expect(await ledgerRows(checkout.id)).toHaveLength(0);
      expect(await eventsOf(checkout.id, 'checkout.paid')).toHaveLength(0);
      expect(await eventsOf(checkout.id, 'checkout.expired')).toHaveLength(1);
      expect(await balanceOf(merchant.testKey)).toEqual(before);
    });
  });

  describe('refund', () => {
    it('refunds the full amount: REFUNDED, available − amount (fee kept), ledger row, event; again → unchanged', async () => {
      const owner = await registerMerchant(app, 'Loja Reembolso');
      const big = await checkoutOf(owner.testKey, 7480);
      await pay(owner.testKey, big.id, 'CARD'); // net 7158
      const target = await checkoutOf(owner.testKey, 2990);
      const paid = await pay(owner.testKey, target.id); // PIX: net 2910
      expect(await balanceOf(owner.testKey)).toEqual({ available: 10_068, pending: 0, blocked: 0 });

      const response = await post(owner.testKey, 'refund', { id: target.id, reason: 'customer asked' });
      expectOk(response);
      const refunded: Checkout = response.body.data;
      expect(refunded).toMatchObject({ id: target.id, status: 'REFUNDED', method: 'PIX', fee: 80, netAmount: 2910, amount: 2990, paidAt: paid.paidAt });
      expect(refunded.refundedAt).toMatch(ISO);
      expect(await fetch(owner.testKey, target.id)).toEqual(refunded);
      expect(await balanceOf(owner.testKey)).toEqual({ available: 10_068 - 2990, pending: 0, blocked: 0 });
      expect((await ledgerRows(target.id)).map((row) => [row.type, row.amount, row.bucket])).toEqual([
        ['payment', 2910, 'available'],
        ['refund', -2990, 'available'],
      ]);
      const events = await eventsOf(target.id, 'checkout.refunded');
      expect(events).toHaveLength(1);
      expect(events[0].parsed).toEqual({ object: refunded });
      expect(await checkoutEvents(target.id)).toEqual(['checkout.created', 'checkout.paid', 'checkout.refunded']);

      const again = await post(owner.testKey, 'refund', { id: target.id });
      expectOk(again);
      expect(again.body.data).toEqual(refunded);
      expect(await ledgerRows(target.id)).toHaveLength(2);
      expect(await eventsOf(target.id, 'checkout.refunded')).toHaveLength(1);
      expect(await balanceOf(owner.testKey)).toEqual({ available: 7078, pending: 0, blocked: 0 });

      // A refunded checkout is final.
      expectError(await post(owner.testKey, 'cancel', { id: target.id }), 409, 'INVALID_STATE');
      expectError(await post(owner.testKey, 'simulate-payment', { id: target.id }), 409, 'INVALID_STATE');
      expectError(await post(owner.testKey, 'simulate-expiration', { id: target.id }), 409, 'INVALID_STATE');
      expect(await ledgerRows(target.id)).toHaveLength(2);
    });

    it('answers 409 INVALID_STATE for a PENDING, CANCELLED or EXPIRED checkout', async () => {
      const pending = await checkoutOf(merchant.testKey, 2000);
      expectError(await post(merchant.testKey, 'refund', { id: pending.id }), 409, 'INVALID_STATE');
      expect((await fetch(merchant.testKey, pending.id)).status).toBe('PENDING');
      const cancelled = await checkoutOf(merchant.testKey, 2000);
      expectOk(await post(merchant.testKey, 'cancel', { id: cancelled.id }));
      expectError(await post(merchant.testKey, 'refund', { id: cancelled.id }), 409, 'INVALID_STATE');
      const expired = await checkoutOf(merchant.testKey, 2000);
      expectOk(await post(merchant.testKey, 'simulate-expiration', { id: expired.id }));
      expectError(await post(merchant.testKey, 'refund', { id: expired.id }), 409, 'INVALID_STATE');
      for (const id of [pending.id, cancelled.id, expired.id]) {
        expect(await ledgerRows(id)).toHaveLength(0);
        expect(await eventsOf(id, 'checkout.refunded')).toHaveLength(0);
      }
    });

    it('answers 409 INSUFFICIENT_FUNDS when available < amount, and changes nothing', async () => {
      const owner = await registerMerchant(app, 'Loja Sem Saldo');
      const target = await checkoutOf(owner.testKey, 1000);
      const paid = await pay(owner.testKey, target.id); // net 920 < 1000
      expect(await balanceOf(owner.testKey)).toEqual({ available: 920, pending: 0, blocked: 0 });

      expectError(await post(owner.testKey, 'refund', { id: target.id }), 409, 'INSUFFICIENT_FUNDS');
      expect(await fetch(owner.testKey, target.id)).toEqual(paid);
      expect(await balanceOf(owner.testKey)).toEqual({ available: 920, pending: 0, blocked: 0 });
      expect((await ledgerRows(target.id)).map((row) => row.type)).toEqual(['payment']);
      expect(await eventsOf(target.id, 'checkout.refunded')).toHaveLength(0);

      // With enough funds the same checkout can be refunded.
      const other = await checkoutOf(owner.testKey, 1000);
      await pay(owner.testKey, other.id); // available 1840
      const refunded = await post(owner.testKey, 'refund', { id: target.id });
      expectOk(refunded);
      expect(refunded.body.data.status).toBe('REFUNDED');
      expect(await balanceOf(owner.testKey)).toEqual({ available: 840, pending: 0, blocked: 0 });
    });

    it('validates the body', async () => {
      const checkout = await checkoutOf(merchant.testKey, 2000);
      expectValidationField(await post(merchant.testKey, 'refund', {}), 'id');
      expectValidationField(await post(merchant.testKey, 'refund', { id: checkout.id, amount: 100 }), 'amount');
      expectValidationField(await post(merchant.testKey, 'refund', { id: checkout.id, reason: 'x'.repeat(501) }), 'reason');
    });
  });

  describe('concurrency', () => {
    it('10 parallel simulate-payment: one 200, nine 409, one ledger row, one checkout.paid', async () => {
      const owner = await registerMerchant(app, 'Loja Corrida');
      const checkout = await checkoutOf(owner.testKey, 5000);
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(owner.testKey, 'simulate-payment', { id: checkout.id, method: i % 2 === 0 ? 'PIX' : 'CARD' })),
      );
      const ok = responses.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      const refused = responses.filter((r) => r.status !== 200);
      expect(refused.map((r) => [r.status, r.body.error?.code])).toEqual(Array(9).fill([409, 'INVALID_STATE']));
      const paid: Checkout = ok[0].body.data;
      const expectedNet = paid.method === 'PIX' ? 4920 : 5000 - 235; // CARD: 175 + 60
      expect(paid.netAmount).toBe(expectedNet);
      expect((await ledgerRows(checkout.id)).map((row) => [row.type, row.amount])).toEqual([['payment', expectedNet]]);
      expect(await eventsOf(checkout.id, 'checkout.paid')).toHaveLength(1);
      expect(await balanceOf(owner.testKey)).toEqual({ available: expectedNet, pending: 0, blocked: 0 });
      expect(await fetch(owner.testKey, checkout.id)).toEqual(paid);
    });

    it('10 parallel refunds: all 200 REFUNDED, one refund row, one event, debited once', async () => {
      const owner = await registerMerchant(app, 'Loja Reembolsos');
      const funding = await checkoutOf(owner.testKey, 20_000);
      await pay(owner.testKey, funding.id); // 19920
      const target = await checkoutOf(owner.testKey, 5000);
      await pay(owner.testKey, target.id); // 4920 → 24840
      expect((await balanceOf(owner.testKey)).available).toBe(24_840);

      const responses = await Promise.all(Array.from({ length: 10 }, () => post(owner.testKey, 'refund', { id: target.id })));
      expect(responses.map((r) => [r.status, r.body.data?.status])).toEqual(Array(10).fill([200, 'REFUNDED']));
      const refundedAt = new Set(responses.map((r) => r.body.data.refundedAt));
      expect(refundedAt.size).toBe(1);
      expect((await ledgerRows(target.id)).map((row) => [row.type, row.amount])).toEqual([
        ['payment', 4920],
        ['refund', -5000],
      ]);
      expect(await eventsOf(target.id, 'checkout.refunded')).toHaveLength(1);
      expect(await balanceOf(owner.testKey)).toEqual({ available: 19_840, pending: 0, blocked: 0 });
    });

    it('10 parallel creations with a coupon of maxRedeems 3: three 201, seven 409 COUPON_UNAVAILABLE', async () => {
      const owner = await registerMerchant(app, 'Loja Cupom');
      const product = await createProduct(owner.testKey, { price: 3000 });
      const coupon = await createCoupon(owner.testKey, { maxRedeems: 3, discountKind: 'FIXED', discount: 500 });
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => post(owner.testKey, 'create', { items: [{ productId: product.id, quantity: 1 }], coupon: coupon.code })),
      );
      const statuses = responses.map((r) => [r.status, r.body.error?.code ?? null]).sort();
      expect(statuses).toEqual([...Array(3).fill([201, null]), ...Array(7).fill([409, 'COUPON_UNAVAILABLE'])]);
      for (const response of responses.filter((r) => r.status === 201)) {
        expect(response.body.data).toMatchObject({ amount: 2500, discount: 500, coupon: coupon.code });
      }
      expect(await chargeCount(owner.storeId)).toBe(3);
      expect(await redeemsOf(owner.testKey, coupon.id)).toBe(3);
      const createdEvents = await db()
        .selectFrom('events')
        .select('id')
        .where('store_id', '=', owner.storeId)
        .where('type', '=', 'checkout.created')
        .execute();
      expect(createdEvents).toHaveLength(3);
      expect(await eventsOf(coupon.id, 'coupon.exhausted')).toHaveLength(1);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays a create: one checkout, one redemption, one event; another body is 422', async () => {
      const owner = await registerMerchant(app, 'Loja Idempotente');
      const product = await createProduct(owner.testKey, { price: 2500 });
      const coupon = await createCoupon(owner.testKey, { discountKind: 'PERCENTAGE', discount: 10 });
      const body = { items: [{ productId: product.id, quantity: 2 }], coupon: coupon.code, externalId: 'idem-1' };
      const headers = { 'Idempotency-Key': 'create-checkout-1' };
      const first = await post(owner.testKey, 'create', body, headers);
      expectOk(first, 201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const second = await post(owner.testKey, 'create', { externalId: 'idem-1', coupon: coupon.code, items: body.items }, headers);
      expectOk(second, 201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      expect(first.body.data).toMatchObject({ subtotal: 5000, discount: 500, amount: 4500 });
      expect(await chargeCount(owner.storeId)).toBe(1);
      expect(await redeemsOf(owner.testKey, coupon.id)).toBe(1);
      expect(await eventsOf(first.body.data.id, 'checkout.created')).toHaveLength(1);

      expectError(await post(owner.testKey, 'create', { ...body, externalId: 'idem-2' }, headers), 422, 'IDEMPOTENCY_KEY_REUSED');
      expectError(await post(owner.testKey, 'cancel', { id: first.body.data.id }, headers), 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(await chargeCount(owner.storeId)).toBe(1);
      expect((await fetch(owner.testKey, first.body.data.id)).status).toBe('PENDING');
    });

    it('executes a create once under concurrent retries with one key', async () => {
      const owner = await registerMerchant(app, 'Loja Idem Paralela');
      const product = await createProduct(owner.testKey, { price: 2500 });
      const headers = { 'Idempotency-Key': 'parallel-create' };
      const body = { items: [{ productId: product.id, quantity: 1 }] };
      const responses = await Promise.all(Array.from({ length: 5 }, () => post(owner.testKey, 'create', body, headers)));
      for (const response of responses) {
        expect([201, 409]).toContain(response.status);
        if (response.status === 409) expect(response.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
      }
      const ids = new Set(responses.filter((r) => r.status === 201).map((r) => r.body.data.id));
      expect(ids.size).toBe(1);
      expect(await chargeCount(owner.storeId)).toBe(1);
      const replay = await post(owner.testKey, 'create', body, headers);
      expectOk(replay, 201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(ids.has(replay.body.data.id)).toBe(true);
    });

    it('replays a refund: one debit, one event', async () => {
      const owner = await registerMerchant(app, 'Loja Idem Reembolso');
      const funding = await checkoutOf(owner.testKey, 10_000);
      await pay(owner.testKey, funding.id); // 9920
      const target = await checkoutOf(owner.testKey, 3000);
      await pay(owner.testKey, target.id); // 2920 → 12840
      const headers = { 'Idempotency-Key': 'refund-1' };
      const first = await post(owner.testKey, 'refund', { id: target.id }, headers);
      expectOk(first);
      expect(first.body.data.status).toBe('REFUNDED');
      const second = await post(owner.testKey, 'refund', { id: target.id }, headers);
      expectOk(second);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      expect((await ledgerRows(target.id)).map((row) => row.type)).toEqual(['payment', 'refund']);
      expect(await eventsOf(target.id, 'checkout.refunded')).toHaveLength(1);
      expect(await balanceOf(owner.testKey)).toEqual({ available: 9840, pending: 0, blocked: 0 });
      expectError(await post(owner.testKey, 'refund', { id: funding.id }, headers), 422, 'IDEMPOTENCY_KEY_REUSED');
      expect((await fetch(owner.testKey, funding.id)).status).toBe('PAID');
    });

    it('replays an INSUFFICIENT_FUNDS refund answer even after funds arrive', async () => {
      const owner = await registerMerchant(app, 'Loja Idem Saldo');
      const target = await checkoutOf(owner.testKey, 1000);
      await pay(owner.testKey, target.id); // 920
      const headers = { 'Idempotency-Key': 'refund-poor' };
      const first = await post(owner.testKey, 'refund', { id: target.id }, headers);
      expectError(first, 409, 'INSUFFICIENT_FUNDS');
      const other = await checkoutOf(owner.testKey, 1000);
      await pay(owner.testKey, other.id);
      const replay = await post(owner.testKey, 'refund', { id: target.id }, headers);
      expectError(replay, 409, 'INSUFFICIENT_FUNDS');
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect((await fetch(owner.testKey, target.id)).status).toBe('PAID');
      expect(await balanceOf(owner.testKey)).toEqual({ available: 1840, pending: 0, blocked: 0 });
    });
  });
});
