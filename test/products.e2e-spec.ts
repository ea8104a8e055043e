import { expectError, expectOk, expectValidationField, manyKeys } from './support/assertions';
import { ProductsService } from '../src/modules/products/products.service';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** Products — API.md §8.2, with §1 (envelope, metadata, lists, idempotency) and §2.4 (permissions). */

const PRODUCT_FIELDS = [
  'createdAt',
  'currency',
  'cycle',
  'description',
  'devMode',
  'externalId',
  'id',
  'imageUrl',
  'metadata',
  'name',
  'price',
  'status',
  'trialDays',
  'updatedAt',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PRODUCT_ID = /^prod_[0-9A-Z]{26}$/;
const MISSING_ID = 'prod_01JD2Z3M4N5P6Q7R8S9T0V1W2X';

interface Product {
  id: string;
  externalId: string;
  name: string;
  description: string | null;
  imageUrl: string | null;
  price: number;
  currency: 'BRL';
  cycle: string | null;
  trialDays: number | null;
  status: 'ACTIVE' | 'INACTIVE';
  metadata: Record<string, string>;
  devMode: boolean;
  createdAt: string;
  updatedAt: string;
}

describe('Products — /v1/products (API.md §8.2)', () => {
  let app: TestApp;
  let merchant: RegisteredMerchant;
  let rival: RegisteredMerchant;
  let liveKey: string;

  const http = () => app.http();
  const post = (token: string, route: string, body: unknown) =>
    http().post(`/v1/products/${route}`).set(bearer(token)).send(body as object);
  const get = (token: string, query: Record<string, string>) => http().get('/v1/products/get').query(query).set(bearer(token));
  const list = (token: string, query: Record<string, string | number> = {}) =>
    http().get('/v1/products/list').query(query).set(bearer(token));
  let counter = 0;
  const sku = (label = 'sku') => {
    counter += 1;
    return `${label}-${counter}-${Date.now()}`;
  };
  const body = (fields: Record<string, unknown> = {}) => ({ externalId: sku(), name: 'Camiseta azul', price: 4990, ...fields });
  const create = async (token: string, fields: Record<string, unknown> = {}): Promise<Product> => {
    const response = await post(token, 'create', body(fields));
    expectOk(response, 201);
    return response.body.data;
  };
  const rowsWithExternalId = (externalId: string) =>
    app.database.db.selectFrom('products').selectAll().where('external_id', '=', externalId).execute();
  const listAll = async (token: string, query: Record<string, string> = {}): Promise<Product[]> => {
    const items: Product[] = [];
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
  });
  afterAll(() => app.close());

  describe('create', () => {
    it('answers 201 with the whole product and devMode true for a test key', async () => {
      const externalId = sku('full');
      const response = await post(merchant.testKey, 'create', {
        externalId,
        name: 'Plano mensal',
        price: 2990,
        description: 'Acesso por um mês',
        imageUrl: 'https://cdn.example.com/plano.png',
        cycle: 'MONTHLY',
        trialDays: 7,
        metadata: { sku: 'PM-1' },
      });
      expectOk(response, 201);
      const product: Product = response.body.data;
      expect(Object.keys(product).sort()).toEqual(PRODUCT_FIELDS);
      expect(product).toEqual({
        id: expect.stringMatching(PRODUCT_ID),
        externalId,
        name: 'Plano mensal',
        description: 'Acesso por um mês',
        imageUrl: 'https://cdn.example.com/plano.png',
        price: 2990,
        currency: 'BRL',
        cycle: 'MONTHLY',
        trialDays: 7,
        status: 'ACTIVE',
        metadata: { sku: 'PM-1' },
        devMode: true,
        createdAt: expect.stringMatching(ISO),
        updatedAt: product.createdAt,
      });
      expect(Math.abs(Date.parse(product.createdAt) - Date.now())).toBeLessThan(60_000);
      const fetched = await get(merchant.testKey, { id: product.id });
      expectOk(fetched);
      expect(fetched.body.data).toEqual(product);
    });

    it('makes a one-off product with nulls for the optional fields', async () => {
      const product = await create(merchant.testKey, { price: 100 });
      expect(product).toMatchObject({ price: 100, cycle: null, trialDays: null, description: null, imageUrl: null, metadata: {} });
      const explicitNull = await create(merchant.testKey, { cycle: null });
      expect(explicitNull.cycle).toBeNull();
    });

    it('marks a product created with a live key devMode false', async () => {
      const product = await create(liveKey);
      expect(product.devMode).toBe(false);
      expectOk(await get(liveKey, { id: product.id }));
    });

    it.each(['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUALLY', 'ANNUALLY'])('accepts cycle %s', async (cycle) => {
      expect((await create(merchant.testKey, { cycle })).cycle).toBe(cycle);
    });

    it.each(['DAILY', 'monthly', 'YEARLY', '', 12])('rejects cycle %p with 400 on field cycle', async (cycle) => {
      expectValidationField(await post(merchant.testKey, 'create', body({ cycle })), 'cycle');
    });

    it('accepts trialDays 1 and 90 with a cycle', async () => {
      expect((await create(merchant.testKey, { cycle: 'WEEKLY', trialDays: 1 })).trialDays).toBe(1);
      expect((await create(merchant.testKey, { cycle: 'ANNUALLY', trialDays: 90 })).trialDays).toBe(90);
    });

    it.each([0, 91, -1, 1.5, '7'])('rejects trialDays %p with 400 on field trialDays', async (trialDays) => {
      const fields = body({ cycle: 'MONTHLY', trialDays });
      expectValidationField(await post(merchant.testKey, 'create', fields), 'trialDays');
      expect(await rowsWithExternalId(fields.externalId)).toEqual([]);
    });

    it('rejects trialDays without a cycle (400 on field trialDays)', async () => {
      const fields = body({ trialDays: 7 });
      expectValidationField(await post(merchant.testKey, 'create', fields), 'trialDays');
      expectValidationField(await post(merchant.testKey, 'create', { ...fields, cycle: null }), 'trialDays');
      expect(await rowsWithExternalId(fields.externalId)).toEqual([]);
    });

    it.each([
      ['below 100', 99],
      ['zero', 0],
      ['negative', -500],
      ['not a whole number of centavos', 100.5],
      ['a string', '4990'],
      ['above R$ 1 billion', 100_000_000_001],
    ])('rejects price %s with 400 on field price', async (_label, price) => {
      const fields = body({ price });
      expectValidationField(await post(merchant.testKey, 'create', fields), 'price');
      expect(await rowsWithExternalId(fields.externalId)).toEqual([]);
    });

    it('requires externalId, name and price', async () => {
      expectValidationField(await post(merchant.testKey, 'create', { name: 'x', price: 1000 }), 'externalId');
      expectValidationField(await post(merchant.testKey, 'create', { externalId: sku(), price: 1000 }), 'name');
      expectValidationField(await post(merchant.testKey, 'create', { externalId: sku(), name: 'x' }), 'price');
      expectValidationField(await post(merchant.testKey, 'create', body({ name: '   ' })), 'name');
      expectValidationField(await post(merchant.testKey, 'create', body({ imageUrl: 'not a url' })), 'imageUrl');
      expectValidationField(await post(merchant.testKey, 'create', body({ imageUrl: 'ftp://cdn.example.com/x.png' })), 'imageUrl');
    });

    it('answers a duplicate externalId in the same store and mode with 409 CONFLICT', async () => {
      const externalId = sku('dup');
      await create(merchant.testKey, { externalId });
      expectError(await post(merchant.testKey, 'create', body({ externalId, name: 'Outro' })), 409, 'CONFLICT');
      expect((await rowsWithExternalId(externalId)).length).toBe(1);
    });

    it("allows the same externalId in the other mode and in another merchant's store", async () => {
      const externalId = sku('shared');
      const inTest = await create(merchant.testKey, { externalId });
      const inLive = await create(liveKey, { externalId });
      const inRival = await create(rival.testKey, { externalId });
      expect(new Set([inTest.id, inLive.id, inRival.id]).size).toBe(3);
      expect((await rowsWithExternalId(externalId)).length).toBe(3);
    });

    it('rejects an unknown body field and never stores it', async () => {
      const fields = body({ color: 'blue' });
      expectValidationField(await post(merchant.testKey, 'create', fields), 'color');
      expectValidationField(await post(merchant.testKey, 'create', body({ currency: 'USD' })), 'currency');
      expectValidationField(await post(merchant.testKey, 'create', body({ status: 'INACTIVE' })), 'status');
      expect(await rowsWithExternalId(fields.externalId)).toEqual([]);
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
      ['a number value', { count: 1 }],
      ['a nested object', { nested: { a: 'b' } }],
      ['an array value', { tags: ['a'] }],
      ['an array', ['a']],
    ])('rejects metadata with %s (400, field metadata)', async (_label, metadata) => {
      const fields = body({ metadata });
      expectValidationField(await post(merchant.testKey, 'create', fields), 'metadata');
      expect(await rowsWithExternalId(fields.externalId)).toEqual([]);
    });

    it('replays an Idempotency-Key: same body, header Idempotent-Replayed, one row', async () => {
      const fields = body();
      const key = `idem-products-${Date.now()}`;
      const first = await post(merchant.testKey, 'create', fields).set('Idempotency-Key', key);
      expectOk(first, 201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const second = await post(merchant.testKey, 'create', fields).set('Idempotency-Key', key);
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      expect((await rowsWithExternalId(fields.externalId)).length).toBe(1);
      expectError(await post(merchant.testKey, 'create', { ...fields, price: 5000 }).set('Idempotency-Key', key), 422, 'IDEMPOTENCY_KEY_REUSED');
    });
  });

  describe('get', () => {
    it('finds a product by id or by externalId', async () => {
      const product = await create(merchant.testKey);
      const byId = await get(merchant.testKey, { id: product.id });
      expectOk(byId);
      expect(byId.body.data).toEqual(product);
      const byExternalId = await get(merchant.testKey, { externalId: product.externalId });
      expectOk(byExternalId);
      expect(byExternalId.body.data).toEqual(product);
    });

    it('answers 404 for an unknown id or externalId, and 400 with neither', async () => {
      expectError(await get(merchant.testKey, { id: MISSING_ID }), 404, 'NOT_FOUND');
      expectError(await get(merchant.testKey, { externalId: 'no-such-sku' }), 404, 'NOT_FOUND');
      expectValidationField(await get(merchant.testKey, {}), 'id');
    });

    it('answers 404 when id and externalId name different products', async () => {
      const one = await create(merchant.testKey);
      const two = await create(merchant.testKey);
      expectError(await get(merchant.testKey, { id: one.id, externalId: two.externalId }), 404, 'NOT_FOUND');
      expectOk(await get(merchant.testKey, { id: one.id, externalId: one.externalId }));
    });
  });

  describe('update', () => {
    it('changes the given fields, including status INACTIVE, and get shows it', async () => {
      const product = await create(merchant.testKey, { description: 'antes', metadata: { a: '1' } });
      const response = await post(merchant.testKey, 'update', {
        id: product.id,
        name: 'Camiseta verde',
        price: 5990,
        status: 'INACTIVE',
        description: null,
        metadata: { b: '2' },
      });
      expectOk(response);
      expect(response.body.data).toEqual({
        ...product,
        name: 'Camiseta verde',
        price: 5990,
        status: 'INACTIVE',
        description: null,
        metadata: { b: '2' },
        updatedAt: expect.stringMatching(ISO),
      });
      expect((await get(merchant.testKey, { id: product.id })).body.data).toEqual(response.body.data);

      const back = await post(merchant.testKey, 'update', { id: product.id, status: 'ACTIVE' });
      expectOk(back);
      expect(back.body.data.status).toBe('ACTIVE');
    });

    it('keeps the trialDays rule: a cycle can gain a trial, dropping the cycle under a trial is 400', async () => {
      const product = await create(merchant.testKey, { cycle: 'MONTHLY' });
      const withTrial = await post(merchant.testKey, 'update', { id: product.id, trialDays: 14 });
      expectOk(withTrial);
      expect(withTrial.body.data).toMatchObject({ cycle: 'MONTHLY', trialDays: 14 });
      expectValidationField(await post(merchant.testKey, 'update', { id: product.id, cycle: null }), 'trialDays');
      const oneOff = await post(merchant.testKey, 'update', { id: product.id, cycle: null, trialDays: null });
      expectOk(oneOff);
      expect(oneOff.body.data).toMatchObject({ cycle: null, trialDays: null });
      expectValidationField(await post(merchant.testKey, 'update', { id: product.id, trialDays: 3 }), 'trialDays');
    });

    it('rejects bad values with 400 and leaves the product unchanged', async () => {
      const product = await create(merchant.testKey);
      expectValidationField(await post(merchant.testKey, 'update', { id: product.id, price: 99 }), 'price');
      expectValidationField(await post(merchant.testKey, 'update', { id: product.id, price: 150.25 }), 'price');
      expectValidationField(await post(merchant.testKey, 'update', { id: product.id, status: 'ARCHIVED' }), 'status');
      expectValidationField(await post(merchant.testKey, 'update', { id: product.id, cycle: 'DAILY' }), 'cycle');
      expectValidationField(await post(merchant.testKey, 'update', { id: product.id, metadata: manyKeys(51) }), 'metadata');
      expectValidationField(await post(merchant.testKey, 'update', { id: product.id, currency: 'USD' }), 'currency');
      expectValidationField(await post(merchant.testKey, 'update', { price: 1000 }), 'id');
      expect((await get(merchant.testKey, { id: product.id })).body.data).toEqual(product);
    });

    it("answers 409 CONFLICT when taking another product's externalId", async () => {
      const holder = await create(merchant.testKey);
      const mover = await create(merchant.testKey);
      expectError(await post(merchant.testKey, 'update', { id: mover.id, externalId: holder.externalId }), 409, 'CONFLICT');
      expect((await get(merchant.testKey, { id: mover.id })).body.data.externalId).toBe(mover.externalId);
    });

    it('answers an unknown id with 404', async () => {
      expectError(await post(merchant.testKey, 'update', { id: MISSING_ID, name: 'x' }), 404, 'NOT_FOUND');
    });
  });

  describe('list', () => {
    it('filters by status and by externalId', async () => {
      const shop = await registerMerchant(app, 'Loja filtros');
      const active = await create(shop.testKey);
      const inactive = await create(shop.testKey);
      expectOk(await post(shop.testKey, 'update', { id: inactive.id, status: 'INACTIVE' }));

      const onlyInactive = await list(shop.testKey, { status: 'INACTIVE' });
      expectOk(onlyInactive);
      expect(onlyInactive.body.data.items.map((item: Product) => item.id)).toEqual([inactive.id]);
      const onlyActive = await list(shop.testKey, { status: 'ACTIVE' });
      expect(onlyActive.body.data.items.map((item: Product) => item.id)).toEqual([active.id]);

      const byExternalId = await list(shop.testKey, { externalId: active.externalId });
      expect(byExternalId.body.data).toEqual({ items: [active], hasMore: false, next: null });
      expect((await list(shop.testKey, { externalId: 'nothing' })).body.data.items).toEqual([]);
      expectValidationField(await list(shop.testKey, { status: 'DELETED' }), 'status');
    });

    it('pages newest first with limit/after, without duplicates or gaps', async () => {
      const shop = await registerMerchant(app, 'Loja paginada');
      const created: Product[] = [];
      for (let i = 0; i < 5; i += 1) created.push(await create(shop.testKey));
      const expected = created.map((product) => product.id).reverse();

      const seen: string[] = [];
      const hasMores: boolean[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const response = await list(shop.testKey, { limit: 2, ...(after ? { after } : {}) });
        expectOk(response);
        pages += 1;
        seen.push(...response.body.data.items.map((item: Product) => item.id));
        hasMores.push(response.body.data.hasMore);
        after = response.body.data.next;
      } while (after !== null && pages < 10);
      expect(pages).toBe(3);
      expect(hasMores).toEqual([true, true, false]);
      expect(seen).toEqual(expected);
      expectValidationField(await list(shop.testKey, { after: 'bm90LWEtY3Vyc29y' }), 'after');
      expectValidationField(await list(shop.testKey, { limit: 0 }), 'limit');
      expectValidationField(await list(shop.testKey, { limit: 101 }), 'limit');
    });

    it('answers 20 items by default, newest first, with a cursor to the 21st', async () => {
      const shop = await registerMerchant(app, 'Loja cheia');
      const created: Product[] = [];
      for (let i = 0; i < 21; i += 1) created.push(await create(shop.testKey));
      const first = await list(shop.testKey);
      expectOk(first);
      expect(first.body.data.items.map((item: Product) => item.id)).toEqual(created.slice(1).map((product) => product.id).reverse());
      expect(first.body.data.hasMore).toBe(true);
      const rest = await list(shop.testKey, { after: first.body.data.next });
      expect(rest.body.data).toEqual({ items: [created[0]], hasMore: false, next: null });
    });
  });

  describe('delete', () => {
    it('hides the product from get (by id and externalId) and list, but charges still read it', async () => {
      const product = await create(merchant.testKey, { price: 12345 });
      const response = await post(merchant.testKey, 'delete', { id: product.id });
      expectOk(response);
      expect(response.body.data).toEqual({ id: product.id, deleted: true });

      expectError(await get(merchant.testKey, { id: product.id }), 404, 'NOT_FOUND');
      expectError(await get(merchant.testKey, { externalId: product.externalId }), 404, 'NOT_FOUND');
      expect((await listAll(merchant.testKey)).map((item) => item.id)).not.toContain(product.id);
      expect((await list(merchant.testKey, { externalId: product.externalId })).body.data.items).toEqual([]);
      expectError(await post(merchant.testKey, 'delete', { id: product.id }), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'update', { id: product.id, name: 'x' }), 404, 'NOT_FOUND');

      const products = app.app.get(ProductsService);
      const rows = await products.findForCharge({ storeId: merchant.storeId, mode: 'test' }, [product.id]);
      expect(rows.length).toBe(1);
      expect(rows[0]).toMatchObject({ id: product.id, price: 12345, external_id: product.externalId, name: product.name });
      expect(rows[0].deleted_at).toEqual(expect.stringMatching(ISO));
      // …but only within its own scope.
      expect(await products.findForCharge({ storeId: merchant.storeId, mode: 'live' }, [product.id])).toEqual([]);
      expect(await products.findForCharge({ storeId: rival.storeId, mode: 'test' }, [product.id])).toEqual([]);
    });

    it('answers an unknown id with 404 and a missing id with 400', async () => {
      expectError(await post(merchant.testKey, 'delete', { id: MISSING_ID }), 404, 'NOT_FOUND');
      expectValidationField(await post(merchant.testKey, 'delete', {}), 'id');
    });
  });

  describe('permissions (API.md §2.4)', () => {
    let target: Product;
    let readKey: string;
    let writeKey: string;
    let otherFamilyKey: string;

    beforeAll(async () => {
      target = await create(merchant.testKey);
      readKey = (await createKey(app, merchant.session, { permissions: ['products:read'] })).key;
      writeKey = (await createKey(app, merchant.session, { permissions: ['products:write'] })).key;
      otherFamilyKey = (await createKey(app, merchant.session, { permissions: ['customers:read', 'customers:write', 'coupons:read', 'coupons:write'] }))
        .key;
    });

    it('products:read lists and gets, but cannot create, update or delete', async () => {
      expectOk(await list(readKey));
      expectOk(await get(readKey, { id: target.id }));
      expectOk(await get(readKey, { externalId: target.externalId }));
      const fields = body();
      expectError(await post(readKey, 'create', fields), 403, 'FORBIDDEN');
      expectError(await post(readKey, 'update', { id: target.id, name: 'x' }), 403, 'FORBIDDEN');
      expectError(await post(readKey, 'delete', { id: target.id }), 403, 'FORBIDDEN');
      expect(await rowsWithExternalId(fields.externalId)).toEqual([]);
      expect((await get(merchant.testKey, { id: target.id })).body.data).toEqual(target);
    });

    it('products:write creates and updates, but cannot list or get', async () => {
      expectOk(await post(writeKey, 'create', body()), 201);
      expectOk(await post(writeKey, 'update', { id: target.id, metadata: { by: 'write' } }));
      expectError(await list(writeKey), 403, 'FORBIDDEN');
      expectError(await get(writeKey, { id: target.id }), 403, 'FORBIDDEN');
    });

    it('a key of other families gets 403 on every route', async () => {
      expectError(await list(otherFamilyKey), 403, 'FORBIDDEN');
      expectError(await get(otherFamilyKey, { id: target.id }), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'create', body()), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'update', { id: target.id, name: 'x' }), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'delete', { id: target.id }), 403, 'FORBIDDEN');
    });

    it('no key is 401 UNAUTHENTICATED', async () => {
      expectError(await http().get('/v1/products/list'), 401, 'UNAUTHENTICATED');
      expectError(await http().get('/v1/products/get').query({ id: target.id }), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/products/create').send(body()), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/products/update').send({ id: target.id }), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/products/delete').send({ id: target.id }), 401, 'UNAUTHENTICATED');
    });
  });

  describe('isolation', () => {
    let target: Product;

    beforeAll(async () => {
      target = await create(merchant.testKey);
    });

    it("hides a merchant's products from another merchant (404, not listed)", async () => {
      expectError(await get(rival.testKey, { id: target.id }), 404, 'NOT_FOUND');
      expectError(await get(rival.testKey, { externalId: target.externalId }), 404, 'NOT_FOUND');
      expectError(await post(rival.testKey, 'update', { id: target.id, name: 'hijack' }), 404, 'NOT_FOUND');
      expectError(await post(rival.testKey, 'delete', { id: target.id }), 404, 'NOT_FOUND');
      expect((await listAll(rival.testKey)).map((item) => item.id)).not.toContain(target.id);
      expect((await get(merchant.testKey, { id: target.id })).body.data).toEqual(target);
    });

    it('hides test-mode products from the live key (404, not listed)', async () => {
      expectError(await get(liveKey, { id: target.id }), 404, 'NOT_FOUND');
      expectError(await get(liveKey, { externalId: target.externalId }), 404, 'NOT_FOUND');
      expectError(await post(liveKey, 'update', { id: target.id, name: 'live' }), 404, 'NOT_FOUND');
      expectError(await post(liveKey, 'delete', { id: target.id }), 404, 'NOT_FOUND');
      const liveItems = await listAll(liveKey);
      expect(liveItems.length).toBeGreaterThan(0);
      expect(liveItems.map((item) => item.id)).not.toContain(target.id);
      for (const item of liveItems) expect(item.devMode).toBe(false);
      expect((await get(merchant.testKey, { id: target.id })).body.data).toEqual(target);
    });
  });
});
