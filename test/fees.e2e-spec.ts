import { bearer, createKey, registerMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** API.md §7 through HTTP. Expected fees are worked out by hand. */
describe('GET /v1/fees/calculate', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const calculate = (query: Record<string, string | number>, key = app.defaultKey) =>
    app.http().get('/v1/fees/calculate').query(query).set(bearer(key));

  it.each([
    [
      { amount: 10000, method: 'PIX' },
      { amount: 10000, method: 'PIX', installments: 1, fee: 80, netAmount: 9920, rate: { percentBasisPoints: 0, fixed: 80 } },
    ],
    [
      { amount: 300, method: 'BOLETO' },
      { amount: 300, method: 'BOLETO', installments: 1, fee: 250, netAmount: 50, rate: { percentBasisPoints: 0, fixed: 250 } },
    ],
    [
      // 3.5 → 4, + 60
      { amount: 100, method: 'CARD' },
      { amount: 100, method: 'CARD', installments: 1, fee: 64, netAmount: 36, rate: { percentBasisPoints: 350, fixed: 60 } },
    ],
    [
      // 240 + 60
      { amount: 6000, method: 'CARD', installments: 6 },
      { amount: 6000, method: 'CARD', installments: 6, fee: 300, netAmount: 5700, rate: { percentBasisPoints: 400, fixed: 60 } },
    ],
    [
      // 319.5 → 320, + 60
      { amount: 7100, method: 'CARD', installments: 7 },
      { amount: 7100, method: 'CARD', installments: 7, fee: 380, netAmount: 6720, rate: { percentBasisPoints: 450, fixed: 60 } },
    ],
    [
      // 540 + 60
      { amount: 12000, method: 'CARD', installments: 12 },
      { amount: 12000, method: 'CARD', installments: 12, fee: 600, netAmount: 11400, rate: { percentBasisPoints: 450, fixed: 60 } },
    ],
  ])('quotes %j', async (query, expected) => {
    const response = await calculate(query).expect(200);
    expect(response.body).toEqual({ data: expected, success: true, error: null });
  });

  it('accepts the method in any case and echoes it upper case', async () => {
    for (const method of ['pix', 'Pix', 'pIX']) {
      const response = await calculate({ amount: 100, method }).expect(200);
      expect(response.body.data).toMatchObject({ method: 'PIX', fee: 80, netAmount: 20 });
    }
    expect((await calculate({ amount: 1000, method: 'card' }).expect(200)).body.data).toMatchObject({
      method: 'CARD',
      fee: 95, // 35 + 60
    });
    expect((await calculate({ amount: 300, method: 'boleto' }).expect(200)).body.data.method).toBe('BOLETO');
  });

  it('defaults installments to 1 and accepts an explicit installments=1 for any method', async () => {
    const implicit = await calculate({ amount: 2000, method: 'CARD' }).expect(200);
    expect(implicit.body.data).toMatchObject({ installments: 1, fee: 130, rate: { percentBasisPoints: 350 } }); // 70 + 60
    const explicit = await calculate({ amount: 2000, method: 'CARD', installments: 1 }).expect(200);
    expect(explicit.body.data).toEqual(implicit.body.data);
    const pix = await calculate({ amount: 2000, method: 'PIX', installments: 1 }).expect(200);
    expect(pix.body.data).toMatchObject({ installments: 1, fee: 80 });
  });

  it('returns integers, never strings or floats', async () => {
    const { data } = (await calculate({ amount: '214', method: 'CARD' }).expect(200)).body;
    expect(data).toMatchObject({ amount: 214, fee: 67, netAmount: 147 }); // 7.49 → 7, + 60
    for (const value of [data.amount, data.installments, data.fee, data.netAmount, data.rate.percentBasisPoints, data.rate.fixed]) {
      expect(Number.isInteger(value)).toBe(true);
    }
  });

  it.each([
    [{ amount: 99, method: 'PIX' }, 100],
    [{ amount: 299, method: 'BOLETO' }, 300],
    [{ amount: 99, method: 'CARD' }, 100],
    [{ amount: 1999, method: 'CARD', installments: 2 }, 2000],
    [{ amount: 5999, method: 'CARD', installments: 6 }, 6000],
    [{ amount: 6999, method: 'CARD', installments: 7 }, 7000],
    [{ amount: 11999, method: 'CARD', installments: 12 }, 12000],
  ])('answers %j with 400 AMOUNT_BELOW_MINIMUM (minimum %d)', async (query, minimum) => {
    const response = await calculate(query).expect(400);
    expect(response.body).toMatchObject({ data: null, success: false, error: { code: 'AMOUNT_BELOW_MINIMUM' } });
    expect(response.body.error.details).toEqual([expect.objectContaining({ field: 'amount', minimum })]);
  });

  it.each([
    ['amount missing', { method: 'PIX' }, 'amount'],
    ['amount 0', { amount: '0', method: 'PIX' }, 'amount'],
    ['amount -5', { amount: '-5', method: 'PIX' }, 'amount'],
    ['amount 1.5', { amount: '1.5', method: 'PIX' }, 'amount'],
    ['amount abc', { amount: 'abc', method: 'PIX' }, 'amount'],
    ['amount 1e3', { amount: '1e3', method: 'PIX' }, 'amount'],
    ['amount empty', { amount: '', method: 'PIX' }, 'amount'],
    ['amount 0x64', { amount: '0x64', method: 'PIX' }, 'amount'],
    ['method missing', { amount: '1000' }, 'method'],
    ['method unknown', { amount: '1000', method: 'BITCOIN' }, 'method'],
    ['method empty', { amount: '1000', method: '' }, 'method'],
    ['installments 0', { amount: '20000', method: 'CARD', installments: '0' }, 'installments'],
    ['installments 13', { amount: '20000', method: 'CARD', installments: '13' }, 'installments'],
    ['installments 2.5', { amount: '20000', method: 'CARD', installments: '2.5' }, 'installments'],
    ['installments abc', { amount: '20000', method: 'CARD', installments: 'abc' }, 'installments'],
    ['installments 3 with PIX', { amount: '20000', method: 'PIX', installments: '3' }, 'installments'],
    ['installments 2 with BOLETO', { amount: '20000', method: 'BOLETO', installments: '2' }, 'installments'],
    ['an unknown query parameter', { amount: '1000', method: 'PIX', currency: 'BRL' }, 'currency'],
  ])('answers %s with 400 VALIDATION_ERROR naming the field', async (_label, query, field) => {
    const response = await calculate(query).expect(400);
    expect(response.body).toMatchObject({ data: null, success: false, error: { code: 'VALIDATION_ERROR' } });
    expect(response.body.error.details).toContainEqual(expect.objectContaining({ field }));
  });

  it('rejects a repeated amount parameter', async () => {
    const response = await app
      .http()
      .get('/v1/fees/calculate?amount=1000&amount=2000&method=PIX')
      .set(bearer(app.defaultKey))
      .expect(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
  });

  describe('authentication', () => {
    it('works with any valid key: restricted, and live', async () => {
      const merchant = await registerMerchant(app);
      const restricted = await createKey(app, merchant.session, { permissions: ['customers:read'] });
      const live = await createKey(app, merchant.session, { mode: 'live', permissions: ['webhooks:write'] });
      for (const key of [merchant.testKey, restricted.key, live.key]) {
        const response = await calculate({ amount: 10000, method: 'CARD' }, key).expect(200);
        expect(response.body.data.fee).toBe(410);
      }
    });

    it('answers 401 without a key', async () => {
      const response = await app.http().get('/v1/fees/calculate').query({ amount: 1000, method: 'PIX' }).expect(401);
      expect(response.body).toEqual({ data: null, success: false, error: { code: 'UNAUTHENTICATED', message: expect.any(String) } });
    });

    it('answers 401 to an unknown key and to a session', async () => {
      const merchant = await registerMerchant(app);
      await calculate({ amount: 1000, method: 'PIX' }, 'sk_test_unknownunknownunknown0000').expect(401);
      const response = await calculate({ amount: 1000, method: 'PIX' }, merchant.session).expect(401);
      expect(response.body.error.code).toBe('UNAUTHENTICATED');
    });

    it('answers 401 to a revoked key', async () => {
      const merchant = await registerMerchant(app);
      const key = await createKey(app, merchant.session, { permissions: ['*'] });
      await calculate({ amount: 1000, method: 'PIX' }, key.key).expect(200);
      await app.http().post('/v1/api-keys/revoke').set(bearer(merchant.session)).send({ id: key.id }).expect(200);
      const response = await calculate({ amount: 1000, method: 'PIX' }, key.key).expect(401);
      expect(response.body.error.code).toBe('UNAUTHENTICATED');
    });

    it('checks the key before validating the query', async () => {
      const response = await app.http().get('/v1/fees/calculate').query({ amount: 'abc' }).expect(401);
      expect(response.body.error.code).toBe('UNAUTHENTICATED');
    });
  });
});
