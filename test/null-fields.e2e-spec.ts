import { bearer } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * A field that is sent must be valid: `null` is a 400 on that field (never a 500, never stored), except where
 * null means "clear this value" (customer name, product description, coupon expiresAt on update…).
 */
describe('null in request fields (API.md §1.1: an invalid field is 400 VALIDATION_ERROR)', () => {
  let app: TestApp;
  let productId: string;
  let customerId: string;
  let couponId: string;

  const post = (path: string, body: object) => app.http().post(path).set(bearer(app.defaultKey)).send(body);
  const expectFieldError = (response: { status: number; body: any }, field: string) => {
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
  };

  beforeAll(async () => {
    app = await startTestApp();
    productId = (await post('/v1/products/create', { externalId: 'null-test', name: 'Caneca', price: 3500 }).expect(201)).body.data.id;
    customerId = (await post('/v1/customers/create', { email: 'null@example.com', name: 'Ana' }).expect(201)).body.data.id;
    couponId = (await post('/v1/coupons/create', { code: 'NULLS', discountKind: 'FIXED', discount: 100 }).expect(201)).body.data.id;
  });
  afterAll(() => app.close());

  it.each(['price', 'name', 'status', 'externalId', 'metadata'])('products/update with %s null → 400 and the product unchanged', async (field) => {
    expectFieldError(await post('/v1/products/update', { id: productId, [field]: null }), field);
    const product = (await app.http().get(`/v1/products/get?id=${productId}`).set(bearer(app.defaultKey)).expect(200)).body.data;
    expect(product).toMatchObject({ price: 3500, name: 'Caneca', status: 'ACTIVE', externalId: 'null-test', metadata: {} });
  });

  it('customers/update and coupons/update with metadata null → 400; metadata stays an object', async () => {
    expectFieldError(await post('/v1/customers/update', { id: customerId, metadata: null }), 'metadata');
    expectFieldError(await post('/v1/coupons/update', { id: couponId, metadata: null }), 'metadata');
    const customer = (await app.http().get(`/v1/customers/get?id=${customerId}`).set(bearer(app.defaultKey))).body.data;
    expect(customer.metadata).toEqual({});
  });

  it('customers/update with name null clears the name (null is meaningful there)', async () => {
    const response = await post('/v1/customers/update', { id: customerId, name: null }).expect(200);
    expect(response.body.data.name).toBeNull();
  });

  it('coupons/create with expiresAt null and checkouts/create with customer null → 400 on that field', async () => {
    expectFieldError(await post('/v1/coupons/create', { code: 'NULL2', discountKind: 'FIXED', discount: 100, expiresAt: null }), 'expiresAt');
    expectFieldError(await post('/v1/checkouts/create', { items: [{ productId, quantity: 1 }], customer: null }), 'customer');
    expectFieldError(await post('/v1/api-keys/create', { name: 'k', permissions: ['*'], mode: null }), 'mode');
  });

  it('refuses unknown query parameters and bodies on routes that take none', async () => {
    expectFieldError(await app.http().get('/v1/stores/list?foo=bar').set(bearer(app.defaultKey)), 'foo');
    const session = (
      await app.http().post('/v1/auth/register').send({ name: 'Bia', email: 'bia-null@example.com', password: 'correct horse battery' }).expect(201)
    ).body.data.session.token as string;
    expectFieldError(await app.http().get('/v1/auth/me?foo=1').set(bearer(session)), 'foo');
    expectFieldError(await app.http().post('/v1/auth/logout').set(bearer(session)).send({ foo: 1 }), 'foo');
    // The refused logout did not end the session.
    await app.http().get('/v1/auth/me').set(bearer(session)).expect(200);
  });

  it('reads numbers in query strings strictly: "1e1", " 3" and "0x3" are not numbers', async () => {
    for (const installments of ['1e1', '%203', '0x3']) {
      expectFieldError(await app.http().get(`/v1/fees/calculate?amount=10000&method=CARD&installments=${installments}`).set(bearer(app.defaultKey)), 'installments');
    }
    for (const limit of ['1e1', '%201', '2.5']) {
      expectFieldError(await app.http().get(`/v1/customers/list?limit=${limit}`).set(bearer(app.defaultKey)), 'limit');
    }
  });
});
