import { expectError, expectOk, expectValidationField } from './support/assertions';
import { randomBytes } from 'node:crypto';
import type { Scope } from '../src/common/auth/auth-context';
import { DomainError } from '../src/common/errors/domain-error';
import { PaymentLinksService } from '../src/modules/payment-links/payment-links.service';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Payment links — API.md §9.2, with §1 (envelope, lists), §7 (fees), §8.3 (coupon reservations), §9
 * (lifecycle), §10 (sandbox) and §13 (events). A payment through a link is a checkout with
 * `paymentLinkId`; the link counts it inside the payment's own transaction. Amounts worked by hand:
 *   2 × 2500 + 1 × 1000 = 6000; PIX fee 80 → net 5920; BOLETO fee 250 → net 5750.
 */
jest.setTimeout(60_000);

interface Link {
  id: string;
  url: string;
  name: string;
  status: 'ACTIVE' | 'INACTIVE' | 'EXPIRED';
  items: { productId: string; name: string; quantity: number; unitPrice: number }[];
  amount: number;
  methods: string[];
  paymentsCount: number;
  maxPayments: number | null;
  coupon: string | null;
  externalId: string | null;
  completionUrl: string | null;
  expiresAt: string | null;
  metadata: Record<string, string>;
  devMode: boolean;
  createdAt: string;
  updatedAt: string;
}

interface Checkout {
  id: string;
  status: string;
  items: { productId: string; name: string; quantity: number; unitPrice: number }[];
  subtotal: number;
  discount: number;
  amount: number;
  methods: string[];
  method: string | null;
  fee: number | null;
  netAmount: number | null;
  customerId: string | null;
  coupon: string | null;
  externalId: string | null;
  completionUrl: string | null;
  paymentLinkId: string | null;
  paidAt: string | null;
  refundedAt: string | null;
  devMode: boolean;
}

const LINK_ID = /^plink_[0-9A-Z]{26}$/;
const CHECKOUT_ID = /^bill_[0-9A-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = 'plink_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const PAST = '2020-01-01T00:00:00.000Z';

async function expectDomainError(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
}

describe('Payment links — /v1/payment-links (API.md §9.2)', () => {
  let app: TestApp;
  let links: PaymentLinksService;
  let merchant: RegisteredMerchant;
  let rival: RegisteredMerchant;
  let liveKey: string;
  let readKey: string;
  let writeKey: string;
  /** Products of `merchant` (sandbox): shirt 2500, mug 1000. */
  let shirt: string;
  let mug: string;

  const http = () => app.http();
  const post = (token: string, route: string, body: unknown) =>
    http()
      .post(`/v1/payment-links/${route}`)
      .set(bearer(token))
      .send(body as object);
  const getRaw = (token: string, id: string) => http().get('/v1/payment-links/get').query({ id }).set(bearer(token));
  const fetch = async (id: string, token = merchant.testKey): Promise<Link> => {
    const response = await getRaw(token, id);
    expectOk(response);
    return response.body.data;
  };
  const list = (token: string, query: Record<string, string | number> = {}) =>
    http().get('/v1/payment-links/list').query(query).set(bearer(token));
  const payments = (token: string, query: Record<string, string | number>) =>
    http().get('/v1/payment-links/payments').query(query).set(bearer(token));
  const scopeOf = (who: RegisteredMerchant): Scope => ({ storeId: who.storeId, mode: 'test' });

  let counter = 0;
  const unique = (label: string) => {
    counter += 1;
    return `${label}-${counter}-${randomBytes(3).toString('hex')}`;
  };
  const createProduct = async (token: string, price: number, fields: Record<string, unknown> = {}): Promise<string> => {
    const response = await http()
      .post('/v1/products/create')
      .set(bearer(token))
      .send({ externalId: unique('sku'), name: `Produto ${price}`, price, ...fields });
    expectOk(response, 201);
    return response.body.data.id;
  };
  const createCoupon = async (token: string, fields: Record<string, unknown>): Promise<{ id: string; code: string }> => {
    const response = await http()
      .post('/v1/coupons/create')
      .set(bearer(token))
      .send({ code: unique('LINK').toUpperCase(), ...fields });
    expectOk(response, 201);
    return response.body.data;
  };
  const couponRedeems = async (token: string, id: string): Promise<number> => {
    const response = await http().get('/v1/coupons/get').query({ id }).set(bearer(token));
    expectOk(response);
    return response.body.data.redeemsCount;
  };
  const standardItems = () => [
    { productId: shirt, quantity: 2 },
    { productId: mug, quantity: 1 },
  ];
  const createLink = async (fields: Record<string, unknown> = {}, token = merchant.testKey): Promise<Link> => {
    const response = await post(token, 'create', { name: 'Kit camiseta + caneca', items: standardItems(), ...fields });
    expectOk(response, 201);
    return response.body.data;
  };
  const simulate = (token: string, id: string, body: Record<string, unknown> = {}) => post(token, 'simulate-payment', { id, ...body });
  const simulateOk = async (id: string, token = merchant.testKey, body: Record<string, unknown> = {}): Promise<Checkout> => {
    const response = await simulate(token, id, body);
    expectOk(response);
    return response.body.data;
  };
  const getCheckout = async (id: string, token = merchant.testKey): Promise<Checkout> => {
    const response = await http().get('/v1/checkouts/get').query({ id }).set(bearer(token));
    expectOk(response);
    return response.body.data;
  };
  const checkoutsOfLink = (linkId: string) =>
    app.database.db.selectFrom('charges').selectAll().where('payment_link_id', '=', linkId).orderBy('id', 'asc').execute();
  const events = async (storeId: string) => {
    const rows = await app.database.db.selectFrom('events').selectAll().where('store_id', '=', storeId).orderBy('id', 'asc').execute();
    return rows.map((row) => ({ type: row.type, object: (JSON.parse(row.data) as { object: Record<string, unknown> }).object }));
  };
  const available = async (token: string): Promise<number> => {
    const response = await http().get('/v1/stores/list').set(bearer(token));
    expectOk(response);
    return response.body.data.items[0].balance.available;
  };
  const expireInDb = (id: string) => app.database.db.updateTable('payment_links').set({ expires_at: PAST }).where('id', '=', id).execute();
  /** A merchant of its own with the shirt and mug products, for exact balances and counts. */
  const freshSeller = async (name: string) => {
    const seller = await registerMerchant(app, name);
    const sellerShirt = await createProduct(seller.testKey, 2500);
    const sellerMug = await createProduct(seller.testKey, 1000);
    const items = [
      { productId: sellerShirt, quantity: 2 },
      { productId: sellerMug, quantity: 1 },
    ];
    const link = async (fields: Record<string, unknown> = {}): Promise<Link> => {
      const response = await post(seller.testKey, 'create', { name: 'Kit', items, ...fields });
      expectOk(response, 201);
      return response.body.data;
    };
    return { seller, items, link };
  };

  beforeAll(async () => {
    app = await startTestApp();
    links = app.app.get(PaymentLinksService);
    merchant = await registerMerchant(app, 'Loja A');
    rival = await registerMerchant(app, 'Loja B');
    liveKey = (await createKey(app, merchant.session, { mode: 'live', permissions: ['*'] })).key;
    readKey = (await createKey(app, merchant.session, { permissions: ['payment-links:read'] })).key;
    writeKey = (await createKey(app, merchant.session, { permissions: ['payment-links:write'] })).key;
    shirt = await createProduct(merchant.testKey, 2500, { name: 'Camiseta azul' });
    mug = await createProduct(merchant.testKey, 1000, { name: 'Caneca' });
  });
  afterAll(() => app.close());

  describe('create', () => {
    it('answers 201 with the priced items, amount = subtotal, url /pay/<id>, methods PIX+CARD, ACTIVE, no payments', async () => {
      const response = await post(merchant.testKey, 'create', {
        name: '  Kit camiseta + caneca ',
        items: standardItems(),
        externalId: 'kit-1',
        completionUrl: 'https://loja.example.com/obrigado',
        metadata: { campaign: 'nov' },
      });
      expectOk(response, 201);
      const link: Link = response.body.data;
      expect(link).toEqual({
        id: expect.stringMatching(LINK_ID),
        url: `http://localhost:3000/pay/${link.id}`,
        name: 'Kit camiseta + caneca',
        status: 'ACTIVE',
        items: [
          { productId: shirt, name: 'Camiseta azul', quantity: 2, unitPrice: 2500 },
          { productId: mug, name: 'Caneca', quantity: 1, unitPrice: 1000 },
        ],
        amount: 6000,
        methods: ['PIX', 'CARD'],
        paymentsCount: 0,
        maxPayments: null,
        coupon: null,
        externalId: 'kit-1',
        completionUrl: 'https://loja.example.com/obrigado',
        expiresAt: null,
        metadata: { campaign: 'nov' },
        devMode: true,
        createdAt: expect.stringMatching(ISO),
        updatedAt: link.createdAt,
      });
      expect(await fetch(link.id)).toEqual(link);
    });

    it('stores methods, maxPayments, a future expiresAt (in UTC) and a coupon (upper-cased)', async () => {
      const coupon = await createCoupon(merchant.testKey, { discountKind: 'PERCENTAGE', discount: 10 });
      const link = await createLink({
        methods: ['BOLETO', 'PIX'],
        maxPayments: 5,
        expiresAt: '2099-06-30T21:00:00-03:00',
        coupon: coupon.code.toLowerCase(),
      });
      expect(link).toMatchObject({
        methods: ['BOLETO', 'PIX'],
        maxPayments: 5,
        expiresAt: '2099-07-01T00:00:00.000Z',
        coupon: coupon.code,
        amount: 6000,
        status: 'ACTIVE',
      });
    });

    it('keeps its own copy of the items: a later price change does not alter the link', async () => {
      const product = await createProduct(merchant.testKey, 4000);
      const link = await createLink({ items: [{ productId: product, quantity: 3 }] });
      expect(link.amount).toBe(12_000);
      const update = await http().post('/v1/products/update').set(bearer(merchant.testKey)).send({ id: product, price: 9000 });
      expectOk(update);
      expect((await fetch(link.id)).amount).toBe(12_000);
      expect((await simulateOk(link.id)).amount).toBe(12_000);
    });

    it('answers 404 for an unknown coupon and stores no link', async () => {
      const before = (await app.database.db.selectFrom('payment_links').select('id').execute()).length;
      expectError(await post(merchant.testKey, 'create', { name: 'Kit', items: standardItems(), coupon: 'NO-SUCH-COUPON' }), 404, 'NOT_FOUND');
      expect((await app.database.db.selectFrom('payment_links').select('id').execute()).length).toBe(before);
    });

    it('answers 404 for a coupon of another merchant', async () => {
      const rivalCoupon = await createCoupon(rival.testKey, { discountKind: 'FIXED', discount: 100 });
      expectError(await post(merchant.testKey, 'create', { name: 'Kit', items: standardItems(), coupon: rivalCoupon.code }), 404, 'NOT_FOUND');
    });

    it.each([
      ['no items', () => ({ items: [] }), 'items'],
      ['quantity 0', () => ({ items: [{ productId: shirt, quantity: 0 }] }), 'items[0].quantity'],
      ['quantity 1000', () => ({ items: [{ productId: shirt, quantity: 1000 }] }), 'items[0].quantity'],
      ['an unknown product', () => ({ items: [{ productId: 'prod_01JD2Z3M4N5P6Q7R8S9T0V1W2X', quantity: 1 }] }), 'items[0].productId'],
      ['no name', () => ({ name: '' }), 'name'],
      ['maxPayments 0', () => ({ maxPayments: 0 }), 'maxPayments'],
      ['maxPayments 1.5', () => ({ maxPayments: 1.5 }), 'maxPayments'],
      ['a past expiresAt', () => ({ expiresAt: PAST }), 'expiresAt'],
      ['an expiresAt that is not a date', () => ({ expiresAt: 'tomorrow' }), 'expiresAt'],
      ['an unknown method', () => ({ methods: ['TED'] }), 'methods'],
      ['a repeated method', () => ({ methods: ['PIX', 'PIX'] }), 'methods'],
      ['no method', () => ({ methods: [] }), 'methods'],
      ['an unknown field', () => ({ price: 100 }), 'price'],
    ])('rejects a link with %s (400)', async (_label, fields, field) => {
      expectValidationField(await post(merchant.testKey, 'create', { name: 'Kit', items: standardItems(), ...fields() }), field);
    });

    it('rejects products that cannot be sold by a link: with a cycle, inactive, of another merchant (400)', async () => {
      const monthly = await createProduct(merchant.testKey, 2000, { cycle: 'MONTHLY' });
      const inactive = await createProduct(merchant.testKey, 2000);
      expectOk(await http().post('/v1/products/update').set(bearer(merchant.testKey)).send({ id: inactive, status: 'INACTIVE' }));
      const foreign = await createProduct(rival.testKey, 2000);
      for (const productId of [monthly, inactive, foreign]) {
        expectValidationField(
          await post(merchant.testKey, 'create', { name: 'Kit', items: [{ productId: mug, quantity: 1 }, { productId, quantity: 1 }] }),
          'items[1].productId',
        );
      }
    });

    it('rejects an amount below a method minimum with 400 AMOUNT_BELOW_MINIMUM (BOLETO needs 300)', async () => {
      const cheap = await createProduct(merchant.testKey, 250);
      expectError(await post(merchant.testKey, 'create', { name: 'Barato', items: [{ productId: cheap, quantity: 1 }], methods: ['BOLETO'] }), 400, 'AMOUNT_BELOW_MINIMUM');
      expect((await createLink({ items: [{ productId: cheap, quantity: 1 }], methods: ['PIX'] })).amount).toBe(250);
    });
  });

  describe('list, get, update, toggle', () => {
    it('lists newest first with limit and cursor', async () => {
      const { seller, link } = await freshSeller('Loja Lista');
      const first = await link({ name: 'Primeiro' });
      const second = await link({ name: 'Segundo' });
      const third = await link({ name: 'Terceiro' });
      const page1 = await list(seller.testKey, { limit: 2 });
      expectOk(page1);
      expect(page1.body.data.items.map((item: Link) => item.id)).toEqual([third.id, second.id]);
      expect(page1.body.data).toMatchObject({ hasMore: true, next: expect.any(String) });
      expect(page1.body.data.items[0]).toEqual(third);
      const page2 = await list(seller.testKey, { limit: 2, after: page1.body.data.next });
      expect(page2.body.data).toEqual({ items: [first], hasMore: false, next: null });
      expectValidationField(await list(seller.testKey, { limit: 0 }), 'limit');
      expectValidationField(await list(seller.testKey, { after: 'garbage!' }), 'after');
    });

    it('get answers 404 for an unknown id and 400 without one', async () => {
      expectError(await getRaw(merchant.testKey, MISSING_ID), 404, 'NOT_FOUND');
      expectValidationField(await http().get('/v1/payment-links/get').set(bearer(merchant.testKey)), 'id');
    });

    it('updates name, completionUrl, metadata, maxPayments and expiresAt', async () => {
      const link = await createLink();
      const response = await post(merchant.testKey, 'update', {
        id: link.id,
        name: 'Kit novo',
        completionUrl: 'https://loja.example.com/fim',
        metadata: { v: '2' },
        maxPayments: 10,
        expiresAt: '2098-01-01T00:00:00Z',
      });
      expectOk(response);
      expect(response.body.data).toMatchObject({
        id: link.id,
        name: 'Kit novo',
        completionUrl: 'https://loja.example.com/fim',
        metadata: { v: '2' },
        maxPayments: 10,
        expiresAt: '2098-01-01T00:00:00.000Z',
        amount: 6000,
        items: link.items,
      });
      expect(await fetch(link.id)).toEqual(response.body.data);
      const cleared = await post(merchant.testKey, 'update', { id: link.id, maxPayments: null, expiresAt: null });
      expect(cleared.body.data).toMatchObject({ maxPayments: null, expiresAt: null });
    });

    it('refuses maxPayments below paymentsCount (400) and takes it equal', async () => {
      const link = await createLink();
      await simulateOk(link.id);
      await simulateOk(link.id);
      expect((await fetch(link.id)).paymentsCount).toBe(2);
      expectValidationField(await post(merchant.testKey, 'update', { id: link.id, maxPayments: 1 }), 'maxPayments');
      expect((await fetch(link.id)).maxPayments).toBeNull();
      const equal = await post(merchant.testKey, 'update', { id: link.id, maxPayments: 2 });
      expectOk(equal);
      expect(equal.body.data).toMatchObject({ maxPayments: 2, paymentsCount: 2 });
      expectError(await simulate(merchant.testKey, link.id), 409, 'INVALID_STATE');
    });

    it.each([
      [{ expiresAt: PAST }, 'expiresAt'],
      [{ maxPayments: 0 }, 'maxPayments'],
      [{ items: [] }, 'items'],
      [{ name: '' }, 'name'],
    ])('rejects the update %j (400)', async (fields, field) => {
      const link = await createLink();
      expectValidationField(await post(merchant.testKey, 'update', { id: link.id, ...fields }), field);
    });

    it('answers 404 to an update of an unknown link', async () => {
      expectError(await post(merchant.testKey, 'update', { id: MISSING_ID, name: 'x' }), 404, 'NOT_FOUND');
    });

    it('toggles ACTIVE ⇄ INACTIVE', async () => {
      const link = await createLink();
      const off = await post(merchant.testKey, 'toggle', { id: link.id });
      expectOk(off);
      expect(off.body.data).toMatchObject({ id: link.id, status: 'INACTIVE' });
      expect((await fetch(link.id)).status).toBe('INACTIVE');
      const on = await post(merchant.testKey, 'toggle', { id: link.id });
      expect(on.body.data.status).toBe('ACTIVE');
      expectError(await post(merchant.testKey, 'toggle', { id: MISSING_ID }), 404, 'NOT_FOUND');
    });

    it('shows a link past expiresAt as EXPIRED; toggling it is 409; a new expiresAt revives it', async () => {
      const link = await createLink({ expiresAt: '2099-01-01T00:00:00Z' });
      await expireInDb(link.id);
      expect((await fetch(link.id)).status).toBe('EXPIRED');
      expectError(await post(merchant.testKey, 'toggle', { id: link.id }), 409, 'INVALID_STATE');
      expect((await fetch(link.id)).status).toBe('EXPIRED');
      const revived = await post(merchant.testKey, 'update', { id: link.id, expiresAt: '2099-01-01T00:00:00Z' });
      expectOk(revived);
      expect(revived.body.data.status).toBe('ACTIVE');
    });
  });

  describe('simulate-payment', () => {
    it('answers a new PAID checkout of the link (first method: PIX, fee 80) and counts the payment, with its events', async () => {
      const { seller, items, link } = await freshSeller('Loja Pagamento');
      const created = await link({ externalId: 'kit-ext', completionUrl: 'https://loja.example.com/ok' });
      const checkout = await simulateOk(created.id, seller.testKey);
      expect(checkout).toMatchObject({
        id: expect.stringMatching(CHECKOUT_ID),
        status: 'PAID',
        paymentLinkId: created.id,
        items: created.items,
        subtotal: 6000,
        discount: 0,
        amount: 6000,
        methods: ['PIX', 'CARD'],
        method: 'PIX',
        fee: 80,
        netAmount: 5920,
        coupon: null,
        externalId: 'kit-ext',
        completionUrl: 'https://loja.example.com/ok',
        customerId: null,
        devMode: true,
      });
      expect(checkout.items.map((item) => item.productId)).toEqual(items.map((item) => item.productId));
      expect(Date.parse(checkout.paidAt as string)).toBeGreaterThan(0);
      expect(await getCheckout(checkout.id, seller.testKey)).toEqual(checkout);
      expect((await fetch(created.id, seller.testKey)).paymentsCount).toBe(1);
      expect(await available(seller.testKey)).toBe(5920);

      const recorded = await events(seller.storeId);
      const types = recorded.map((event) => event.type);
      expect(types).toEqual(['checkout.created', 'checkout.paid', 'payment-link.paid']);
      expect(recorded[0].object).toMatchObject({ id: checkout.id, status: 'PENDING', paymentLinkId: created.id });
      expect(recorded[1].object).toEqual(checkout);
      expect(recorded[2].object).toMatchObject({ id: created.id, paymentsCount: 1 });
      expect(recorded[2].object).not.toHaveProperty('checkoutId');

      const second = await simulateOk(created.id, seller.testKey);
      expect(second.id).not.toBe(checkout.id);
      expect((await fetch(created.id, seller.testKey)).paymentsCount).toBe(2);
      expect(await available(seller.testKey)).toBe(11_840);
    });

    it('pays with the first of the link methods: BOLETO first → fee 250', async () => {
      const link = await createLink({ methods: ['BOLETO', 'PIX'] });
      expect(await simulateOk(link.id)).toMatchObject({ method: 'BOLETO', fee: 250, netAmount: 5750, methods: ['BOLETO', 'PIX'] });
    });

    it('records the buyer given as customer', async () => {
      const link = await createLink();
      const email = `${unique('buyer')}@example.com`;
      const checkout = await simulateOk(link.id, merchant.testKey, { customer: { name: 'Ana Lima', email, taxId: '111.444.777-35' } });
      expect(checkout.customerId).toMatch(/^cust_/);
      const customer = await http().get('/v1/customers/get').query({ id: checkout.customerId as string }).set(bearer(merchant.testKey));
      expectOk(customer);
      expect(customer.body.data).toMatchObject({ name: 'Ana Lima', email, taxId: '11144477735' });
      expectValidationField(await simulate(merchant.testKey, link.id, { customer: { name: 'Ana', email: 'not-an-email', taxId: '11144477735' } }), 'customer.email');
    });

    it('applies the link coupon to each payment, reserving one redemption per payment', async () => {
      const fixed = await createCoupon(merchant.testKey, { discountKind: 'FIXED', discount: 500, maxRedeems: 2 });
      const link = await createLink({ coupon: fixed.code });
      const first = await simulateOk(link.id);
      // 6000 − 500 = 5500; PIX fee 80 → 5420
      expect(first).toMatchObject({ subtotal: 6000, discount: 500, amount: 5500, coupon: fixed.code, fee: 80, netAmount: 5420 });
      expect(await couponRedeems(merchant.testKey, fixed.id)).toBe(1);
      await simulateOk(link.id);
      expect(await couponRedeems(merchant.testKey, fixed.id)).toBe(2);
      // the coupon is used up: the third buyer is refused, and nothing is left behind
      expectError(await simulate(merchant.testKey, link.id), 409, 'COUPON_UNAVAILABLE');
      expect(await couponRedeems(merchant.testKey, fixed.id)).toBe(2);
      expect((await fetch(link.id)).paymentsCount).toBe(2);
      expect(await checkoutsOfLink(link.id)).toHaveLength(2);

      const percent = await createCoupon(merchant.testKey, { discountKind: 'PERCENTAGE', discount: 10 });
      const percentLink = await createLink({ coupon: percent.code });
      // 10 % of 6000 = 600 → 5400; fee 80 → 5320
      expect(await simulateOk(percentLink.id)).toMatchObject({ discount: 600, amount: 5400, netAmount: 5320, coupon: percent.code });
      expect(await couponRedeems(merchant.testKey, percent.id)).toBe(1);
    });

    it('refuses a payment with 409 INVALID_STATE and creates no checkout: at maxPayments, past expiresAt, INACTIVE', async () => {
      const full = await createLink({ maxPayments: 1 });
      await simulateOk(full.id);
      expectError(await simulate(merchant.testKey, full.id), 409, 'INVALID_STATE');
      expect(await checkoutsOfLink(full.id)).toHaveLength(1);
      expect((await fetch(full.id)).paymentsCount).toBe(1);

      const expired = await createLink({ expiresAt: '2099-01-01T00:00:00Z' });
      await expireInDb(expired.id);
      expectError(await simulate(merchant.testKey, expired.id), 409, 'INVALID_STATE');
      expect(await checkoutsOfLink(expired.id)).toHaveLength(0);

      const inactive = await createLink();
      await post(merchant.testKey, 'toggle', { id: inactive.id });
      expectError(await simulate(merchant.testKey, inactive.id), 409, 'INVALID_STATE');
      expect(await checkoutsOfLink(inactive.id)).toHaveLength(0);
      expect((await fetch(inactive.id)).paymentsCount).toBe(0);
      await post(merchant.testKey, 'toggle', { id: inactive.id });
      expect((await simulateOk(inactive.id)).status).toBe('PAID');
    });

    it('answers 404 for an unknown link', async () => {
      expectError(await simulate(merchant.testKey, MISSING_ID), 404, 'NOT_FOUND');
    });

    it('never passes maxPayments: 10 concurrent payments of a link with maxPayments 3 → exactly 3 PAID', async () => {
      const { seller, link } = await freshSeller('Loja Concorrencia');
      const limited = await link({ maxPayments: 3 });
      const responses = await Promise.all(Array.from({ length: 10 }, () => simulate(seller.testKey, limited.id)));
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 200, 200, 409, 409, 409, 409, 409, 409, 409]);
      for (const response of responses.filter((r) => r.status === 409)) expectError(response, 409, 'INVALID_STATE');
      expect((await fetch(limited.id, seller.testKey)).paymentsCount).toBe(3);
      const rows = await checkoutsOfLink(limited.id);
      expect(rows).toHaveLength(3);
      expect(rows.every((row) => row.status === 'PAID')).toBe(true);
      expect(rows.map((row) => row.id).sort()).toEqual(
        responses.filter((r) => r.status === 200).map((r) => r.body.data.id).sort(),
      );
      const types = (await events(seller.storeId)).map((event) => event.type);
      expect(types.filter((type) => type === 'payment-link.paid')).toHaveLength(3);
      expect(types.filter((type) => type === 'checkout.created')).toHaveLength(3);
      expect(await available(seller.testKey)).toBe(3 * 5920);
    });
  });

  describe('checkouts started from a link (PaymentLinksService.startCheckout)', () => {
    it('is a PENDING checkout of the link that counts once paid through /v1/checkouts/simulate-payment', async () => {
      const link = await createLink({ maxPayments: 5 });
      const started = await links.startCheckout(scopeOf(merchant), link.id);
      expect(started).toMatchObject({ status: 'PENDING', payment_link_id: link.id, amount: 6000, kind: 'checkout' });
      expect((await fetch(link.id)).paymentsCount).toBe(0);
      const paid = await http().post('/v1/checkouts/simulate-payment').set(bearer(merchant.testKey)).send({ id: started.id });
      expectOk(paid);
      expect(paid.body.data).toMatchObject({ id: started.id, status: 'PAID', paymentLinkId: link.id, fee: 80 });
      expect((await fetch(link.id)).paymentsCount).toBe(1);
      const linkEvents = (await events(merchant.storeId)).filter(
        (event) => event.type === 'payment-link.paid' && event.object.id === link.id,
      );
      expect(linkEvents).toHaveLength(1);
      // The object is the link exactly as GET /v1/payment-links/get shows it after the payment (API.md §13).
      expect(linkEvents[0].object).toEqual(await fetch(link.id));
      expect(linkEvents[0].object).toMatchObject({ id: link.id, paymentsCount: 1 });
    });

    it("takes the link coupon's redemption when a checkout is paid, not when a buyer opens one", async () => {
      const coupon = await createCoupon(merchant.testKey, { discountKind: 'FIXED', discount: 500, maxRedeems: 1 });
      const link = await createLink({ coupon: coupon.code });
      const first = await links.startCheckout(scopeOf(merchant), link.id);
      const second = await links.startCheckout(scopeOf(merchant), link.id);
      // Opening checkouts reserves nothing: anyone can open them, and unpaid ones must not use the coupon up.
      expect(await couponRedeems(merchant.testKey, coupon.id)).toBe(0);
      expect(first).toMatchObject({ discount: 500, amount: 5500, coupon_reserved: 0 });
      const pay = (id: string) => http().post('/v1/checkouts/simulate-payment').set(bearer(merchant.testKey)).send({ id });
      expectOk(await pay(first.id));
      expect(await couponRedeems(merchant.testKey, coupon.id)).toBe(1);
      // The second buyer's payment would pass maxRedeems: refused, nothing paid or counted.
      expectError(await pay(second.id), 409, 'COUPON_UNAVAILABLE');
      expect(await getCheckout(second.id)).toMatchObject({ status: 'PENDING', paidAt: null });
      expect((await fetch(link.id)).paymentsCount).toBe(1);
      expect(await couponRedeems(merchant.testKey, coupon.id)).toBe(1);
      // Expiring the unpaid checkout gives nothing back: it never held a redemption.
      expectOk(await http().post('/v1/checkouts/simulate-expiration').set(bearer(merchant.testKey)).send({ id: second.id }));
      expect(await couponRedeems(merchant.testKey, coupon.id)).toBe(1);
    });

    it('refuses to pay a started checkout once the link is at maxPayments (409): it stays PENDING', async () => {
      const link = await createLink({ maxPayments: 1 });
      const first = await links.startCheckout(scopeOf(merchant), link.id);
      const second = await links.startCheckout(scopeOf(merchant), link.id);
      const pay = (id: string) => http().post('/v1/checkouts/simulate-payment').set(bearer(merchant.testKey)).send({ id });
      expectOk(await pay(first.id));
      expectError(await pay(second.id), 409, 'INVALID_STATE');
      expect(await getCheckout(second.id)).toMatchObject({ status: 'PENDING', paidAt: null, fee: null });
      expect((await fetch(link.id)).paymentsCount).toBe(1);
      const paidEvents = (await events(merchant.storeId)).filter((event) => event.type === 'checkout.paid' && event.object.id === second.id);
      expect(paidEvents).toEqual([]);
      await expectDomainError(links.startCheckout(scopeOf(merchant), link.id), 'INVALID_STATE');
    });

    it('refuses to start a checkout of an inactive, expired or unknown link', async () => {
      const inactive = await createLink();
      await post(merchant.testKey, 'toggle', { id: inactive.id });
      await expectDomainError(links.startCheckout(scopeOf(merchant), inactive.id), 'INVALID_STATE');
      const expired = await createLink({ expiresAt: '2099-01-01T00:00:00Z' });
      await expireInDb(expired.id);
      await expectDomainError(links.startCheckout(scopeOf(merchant), expired.id), 'INVALID_STATE');
      await expectDomainError(links.startCheckout(scopeOf(merchant), MISSING_ID), 'NOT_FOUND');
      await expectDomainError(links.startCheckout(scopeOf(rival), inactive.id), 'NOT_FOUND');
    });
  });

  describe('payments', () => {
    it("lists the link's checkouts newest first, paged", async () => {
      const link = await createLink();
      const other = await createLink();
      const first = await simulateOk(link.id);
      const second = await simulateOk(link.id);
      const started = await links.startCheckout(scopeOf(merchant), link.id);
      await simulateOk(other.id);

      const page1 = await payments(merchant.testKey, { id: link.id, limit: 2 });
      expectOk(page1);
      expect(page1.body.data.items.map((item: Checkout) => item.id)).toEqual([started.id, second.id]);
      expect(page1.body.data).toMatchObject({ hasMore: true, next: expect.any(String) });
      expect(page1.body.data.items[1]).toEqual(second);
      const page2 = await payments(merchant.testKey, { id: link.id, limit: 2, after: page1.body.data.next });
      expect(page2.body.data).toEqual({ items: [first], hasMore: false, next: null });
      expect(page2.body.data.items.every((item: Checkout) => item.paymentLinkId === link.id)).toBe(true);
    });

    it('answers 404 for an unknown link and 400 without id', async () => {
      expectError(await payments(merchant.testKey, { id: MISSING_ID }), 404, 'NOT_FOUND');
      expectValidationField(await http().get('/v1/payment-links/payments').set(bearer(merchant.testKey)), 'id');
    });
  });

  describe('refund', () => {
    it('refunds one payment (its checkout id): REFUNDED, available − amount, the other payment untouched', async () => {
      const { seller, link } = await freshSeller('Loja Reembolso');
      const created = await link();
      const first = await simulateOk(created.id, seller.testKey);
      const second = await simulateOk(created.id, seller.testKey);
      expect(await available(seller.testKey)).toBe(11_840);

      const response = await post(seller.testKey, 'refund', { id: first.id, reason: 'arrependimento' });
      expectOk(response);
      expect(response.body.data).toMatchObject({ id: first.id, status: 'REFUNDED', paymentLinkId: created.id, amount: 6000, fee: 80 });
      expect(Date.parse(response.body.data.refundedAt)).toBeGreaterThan(0);
      // 11840 − 6000
      expect(await available(seller.testKey)).toBe(5840);
      expect((await getCheckout(second.id, seller.testKey)).status).toBe('PAID');
      expect((await fetch(created.id, seller.testKey)).paymentsCount).toBe(2);

      const again = await post(seller.testKey, 'refund', { id: first.id });
      expectOk(again);
      expect(again.body.data).toEqual(response.body.data);
      expect(await available(seller.testKey)).toBe(5840);
      const refundedEvents = (await events(seller.storeId)).filter((event) => event.type === 'checkout.refunded');
      expect(refundedEvents.map((event) => event.object.id)).toEqual([first.id]);
    });

    it('refuses a refund larger than the available balance (409 INSUFFICIENT_FUNDS)', async () => {
      const { seller, link } = await freshSeller('Loja Saldo');
      const paid = await simulateOk((await link()).id, seller.testKey);
      expectError(await post(seller.testKey, 'refund', { id: paid.id }), 409, 'INSUFFICIENT_FUNDS');
      expect((await getCheckout(paid.id, seller.testKey)).status).toBe('PAID');
    });

    it('refuses a PENDING payment (409 INVALID_STATE)', async () => {
      const link = await createLink();
      const started = await links.startCheckout(scopeOf(merchant), link.id);
      expectError(await post(merchant.testKey, 'refund', { id: started.id }), 409, 'INVALID_STATE');
    });

    it('answers 404 for a checkout that is not a link payment, a link id or an unknown id', async () => {
      const direct = await http()
        .post('/v1/checkouts/create')
        .set(bearer(merchant.testKey))
        .send({ items: [{ productId: mug, quantity: 1 }] });
      expectOk(direct, 201);
      expectOk(await http().post('/v1/checkouts/simulate-payment').set(bearer(merchant.testKey)).send({ id: direct.body.data.id }));
      expectError(await post(merchant.testKey, 'refund', { id: direct.body.data.id }), 404, 'NOT_FOUND');
      expect((await getCheckout(direct.body.data.id)).status).toBe('PAID');
      const link = await createLink();
      expectError(await post(merchant.testKey, 'refund', { id: link.id }), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'refund', { id: 'bill_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }), 404, 'NOT_FOUND');
    });
  });

  describe('live mode', () => {
    it('creates a live link (devMode false) but simulate-payment is 403 SANDBOX_ONLY, whatever the id', async () => {
      const liveProduct = await createProduct(liveKey, 3000);
      const response = await post(liveKey, 'create', { name: 'Ao vivo', items: [{ productId: liveProduct, quantity: 1 }] });
      expectOk(response, 201);
      const live: Link = response.body.data;
      expect(live).toMatchObject({ devMode: false, amount: 3000, status: 'ACTIVE' });
      const sandbox = await createLink();
      for (const id of [live.id, sandbox.id, MISSING_ID]) expectError(await simulate(liveKey, id), 403, 'SANDBOX_ONLY');
      expect((await fetch(live.id, liveKey)).paymentsCount).toBe(0);
      expect(await checkoutsOfLink(live.id)).toHaveLength(0);
    });

    it('does not take products of the other mode', async () => {
      expectValidationField(await post(liveKey, 'create', { name: 'Mistura', items: [{ productId: shirt, quantity: 1 }] }), 'items[0].productId');
    });
  });

  describe('permissions', () => {
    let link: Link;
    let paid: Checkout;
    beforeAll(async () => {
      link = await createLink();
      paid = await simulateOk(link.id);
    });

    it('payment-links:read reads (get, list, payments) but cannot write', async () => {
      expectOk(await getRaw(readKey, link.id));
      expectOk(await list(readKey));
      expectOk(await payments(readKey, { id: link.id }));
      expectError(await post(readKey, 'create', { name: 'Kit', items: standardItems() }), 403, 'FORBIDDEN');
      expectError(await post(readKey, 'update', { id: link.id, name: 'x' }), 403, 'FORBIDDEN');
      expectError(await post(readKey, 'toggle', { id: link.id }), 403, 'FORBIDDEN');
      expectError(await simulate(readKey, link.id), 403, 'FORBIDDEN');
      expectError(await post(readKey, 'refund', { id: paid.id }), 403, 'FORBIDDEN');
      expect(await fetch(link.id)).toMatchObject({ name: link.name, status: 'ACTIVE', paymentsCount: 1 });
    });

    it('payment-links:write writes (create, update, toggle, simulate) but cannot read', async () => {
      expectOk(await post(writeKey, 'create', { name: 'Kit', items: standardItems() }), 201);
      expectOk(await post(writeKey, 'update', { id: link.id, name: 'Renomeado' }));
      expectOk(await simulate(writeKey, link.id));
      const toggled = await post(writeKey, 'toggle', { id: link.id });
      expectOk(toggled);
      expect(toggled.body.data.status).toBe('INACTIVE');
      expectOk(await post(writeKey, 'toggle', { id: link.id }));
      expectError(await getRaw(writeKey, link.id), 403, 'FORBIDDEN');
      expectError(await list(writeKey), 403, 'FORBIDDEN');
      expectError(await payments(writeKey, { id: link.id }), 403, 'FORBIDDEN');
    });

    it('a checkouts key gets 403 and no key gets 401', async () => {
      const checkoutsKey = (await createKey(app, merchant.session, { permissions: ['checkouts:read', 'checkouts:write'] })).key;
      expectError(await getRaw(checkoutsKey, link.id), 403, 'FORBIDDEN');
      expectError(await simulate(checkoutsKey, link.id), 403, 'FORBIDDEN');
      expectError(await post(checkoutsKey, 'refund', { id: paid.id }), 403, 'FORBIDDEN');
      expectError(await http().get('/v1/payment-links/list'), 401, 'UNAUTHENTICATED');
    });
  });

  describe('tenant and mode isolation', () => {
    it("answers 404 for another merchant's link and payment on every route, and leaves them alone", async () => {
      const link = await createLink();
      const paid = await simulateOk(link.id);
      expectError(await getRaw(rival.testKey, link.id), 404, 'NOT_FOUND');
      expectError(await post(rival.testKey, 'update', { id: link.id, name: 'hijack' }), 404, 'NOT_FOUND');
      expectError(await post(rival.testKey, 'toggle', { id: link.id }), 404, 'NOT_FOUND');
      expectError(await payments(rival.testKey, { id: link.id }), 404, 'NOT_FOUND');
      expectError(await simulate(rival.testKey, link.id), 404, 'NOT_FOUND');
      expectError(await post(rival.testKey, 'refund', { id: paid.id }), 404, 'NOT_FOUND');
      const rivalIds = ((await list(rival.testKey, { limit: 100 })).body.data.items as Link[]).map((item) => item.id);
      expect(rivalIds).not.toContain(link.id);
      expect(await fetch(link.id)).toMatchObject({ name: link.name, status: 'ACTIVE', paymentsCount: 1 });
      expect((await getCheckout(paid.id)).status).toBe('PAID');
    });

    it("answers 404 for the other mode's link", async () => {
      const sandbox = await createLink();
      const liveProduct = await createProduct(liveKey, 2000);
      const live = await post(liveKey, 'create', { name: 'Live', items: [{ productId: liveProduct, quantity: 1 }] });
      expectOk(live, 201);
      expectError(await getRaw(liveKey, sandbox.id), 404, 'NOT_FOUND');
      expectError(await post(liveKey, 'toggle', { id: sandbox.id }), 404, 'NOT_FOUND');
      expectError(await payments(liveKey, { id: sandbox.id }), 404, 'NOT_FOUND');
      expectError(await getRaw(merchant.testKey, live.body.data.id), 404, 'NOT_FOUND');
      expectError(await simulate(merchant.testKey, live.body.data.id), 404, 'NOT_FOUND');
      const liveIds = ((await list(liveKey, { limit: 100 })).body.data.items as Link[]).map((item) => item.id);
      expect(liveIds).toContain(live.body.data.id);
      expect(liveIds).not.toContain(sandbox.id);
    });
  });
});
