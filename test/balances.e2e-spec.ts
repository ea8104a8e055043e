import type { Response } from 'supertest';
import type { Scope } from '../src/common/auth/auth-context';
import { LedgerRepository } from '../src/modules/ledger/ledger.repository';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Balance reconciliation — API.md §6 (balance = sum of its ledger), §7 (fees), §9 (paid credits netAmount,
 * refunds debit the whole amount and need available ≥ amount). A seeded random run of checkouts, payments
 * and refunds, then a concurrent burst; after each, three independent views of the money must agree:
 * the store balance, the ledger (`/v1/stores/transactions`, every page) and the checkouts themselves.
 */
jest.setTimeout(60_000);

type Method = 'PIX' | 'CARD' | 'BOLETO';
interface Checkout {
  id: string;
  status: string;
  amount: number;
  subtotal: number;
  discount: number;
  methods: Method[];
  method: Method | null;
  fee: number | null;
  netAmount: number | null;
}
interface Balance {
  available: number;
  pending: number;
  blocked: number;
}
interface Transaction {
  id: string;
  type: string;
  amount: number;
  bucket: string;
  sourceId: string | null;
}

/** Park–Miller minimal standard generator: deterministic, exact in doubles (48271 × 2³¹ < 2⁵³). */
function seededRandom(seed: number) {
  let state = seed % 2_147_483_647;
  if (state <= 0) state += 2_147_483_646;
  const next = () => {
    state = (state * 48_271) % 2_147_483_647;
    return (state - 1) / 2_147_483_646;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)],
  };
}

/** API.md §7 at 1x, written out independently of the service: PIX 80, BOLETO 250, CARD 3.50 % (half up) + 60. */
function expectedFee(amount: number, method: Method): number {
  if (method === 'PIX') return 80;
  if (method === 'BOLETO') return 250;
  const hundredths = amount * 350; // the percentage part in 1/10000 of a centavo
  const whole = Math.floor(hundredths / 10_000);
  const remainder = hundredths % 10_000;
  return whole + (remainder >= 5_000 ? 1 : 0) + 60;
}

function expectOk(response: Response, status = 200): void {
  expect({ status: response.status, error: response.body?.error ?? null }).toEqual({ status, error: null });
}

const METHOD_SETS: readonly Method[][] = [['PIX', 'CARD'], ['PIX'], ['CARD'], ['BOLETO', 'PIX'], ['PIX', 'CARD', 'BOLETO'], ['BOLETO']];

describe('Balances reconcile with the ledger and the checkouts (API.md §6, §7, §9)', () => {
  let app: TestApp;
  let ledger: LedgerRepository;
  let merchant: RegisteredMerchant;
  const rng = seededRandom(20_261_121);

  const http = () => app.http();
  const db = () => app.database.db;
  const post = (route: string, body: object, key = merchant.testKey) => http().post(route).set(bearer(key)).send(body);

  const balanceOf = async (key = merchant.testKey): Promise<Balance> => {
    const response = await http().get('/v1/stores/list').set(bearer(key));
    expectOk(response);
    return response.body.data.items[0].balance;
  };
  const pages = async <T>(route: string, key: string, limit: number): Promise<T[]> => {
    const items: T[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 500; guard += 1) {
      const response: Response = await http()
        .get(route)
        .query({ limit, ...(after ? { after } : {}) })
        .set(bearer(key));
      expectOk(response);
      items.push(...response.body.data.items);
      after = response.body.data.next;
      if (!response.body.data.hasMore) {
        expect(after).toBeNull();
        return items;
      }
    }
    throw new Error('too many pages');
  };
  const allTransactions = (key = merchant.testKey) => pages<Transaction>('/v1/stores/transactions', key, 7);
  const allCheckouts = (key = merchant.testKey) => pages<Checkout>('/v1/checkouts/list', key, 9);
  const ledgerRows = (sourceId: string) =>
    db().selectFrom('ledger_entries').select(['type', 'amount', 'bucket']).where('source_id', '=', sourceId).orderBy('id').execute();
  const eventCount = async (type: string, objectId: string): Promise<number> => {
    const rows = await db().selectFrom('events').select('data').where('type', '=', type).where('data', 'like', `%${objectId}%`).execute();
    return rows.filter((row) => (JSON.parse(row.data) as { object: { id: string } }).object.id === objectId).length;
  };
  const createProduct = async (price: number): Promise<string> => {
    const response = await post('/v1/products/create', { externalId: `sku-${price}-${rng.int(0, 1e9)}`, name: `Item ${price}`, price });
    expectOk(response, 201);
    return response.body.data.id;
  };

  /** The model: what the tests expect the available balance to be. */
  let modelAvailable = 0;

  /**
   * The three views agree, with the model and with each other, and each checkout's ledger rows and events
   * match its status exactly.
   */
  const reconcile = async (owner: RegisteredMerchant = merchant, expected: number = modelAvailable) => {
    const balance = await balanceOf(owner.testKey);
    const transactions = await allTransactions(owner.testKey);
    const checkouts = await allCheckouts(owner.testKey);

    expect(new Set(transactions.map((t) => t.id)).size).toBe(transactions.length);
    expect(new Set(checkouts.map((c) => c.id)).size).toBe(checkouts.length);
    const ledgerSum = transactions.reduce((sum, t) => sum + t.amount, 0);
    const paid = checkouts.filter((c) => c.status === 'PAID');
    const refunded = checkouts.filter((c) => c.status === 'REFUNDED');
    const fromCheckouts =
      paid.reduce((sum, c) => sum + (c.netAmount as number), 0) + refunded.reduce((sum, c) => sum + (c.netAmount as number) - c.amount, 0);

    expect({ balance: balance.available, ledger: ledgerSum, checkouts: fromCheckouts }).toEqual({
      balance: expected,
      ledger: expected,
      checkouts: expected,
    });
    expect(balance.pending).toBe(0);
    expect(balance.blocked).toBe(0);
    expect(balance.available).toBeGreaterThanOrEqual(0);
    expect(transactions.every((t) => t.bucket === 'available')).toBe(true);
    // One payment row per paid or refunded checkout, one refund row per refunded one, nothing else.
    expect(transactions).toHaveLength(paid.length + 2 * refunded.length);

    const stored = await db().selectFrom('balances').selectAll().where('store_id', '=', owner.storeId).where('mode', '=', 'test').executeTakeFirstOrThrow();
    const ownerScope: Scope = { storeId: owner.storeId, mode: 'test' };
    expect(await ledger.sumEntries(ownerScope)).toEqual({ available: stored.available, pending: stored.pending, blocked: stored.blocked });
    expect(Number(stored.available)).toBe(expected);

    const bySource = new Map<string, Transaction[]>();
    for (const t of transactions) bySource.set(t.sourceId as string, [...(bySource.get(t.sourceId as string) ?? []), t]);
    for (const checkout of checkouts) {
      const rows = (bySource.get(checkout.id) ?? []).map((t) => [t.type, t.amount]).sort();
      const events = [await eventCount('checkout.paid', checkout.id), await eventCount('checkout.refunded', checkout.id)];
      if (checkout.status === 'PAID' || checkout.status === 'REFUNDED') {
        expect(checkout.fee).toBe(expectedFee(checkout.amount, checkout.method as Method));
        expect(checkout.netAmount).toBe(checkout.amount - (checkout.fee as number));
        expect(checkout.methods).toContain(checkout.method);
      }
      if (checkout.status === 'PAID') {
        expect({ id: checkout.id, rows, events }).toEqual({ id: checkout.id, rows: [['payment', checkout.netAmount]], events: [1, 0] });
      } else if (checkout.status === 'REFUNDED') {
        expect({ id: checkout.id, rows, events }).toEqual({
          id: checkout.id,
          rows: [
            ['payment', checkout.netAmount],
            ['refund', -checkout.amount],
          ],
          events: [1, 1],
        });
      } else {
        expect({ id: checkout.id, rows, events, fee: checkout.fee }).toEqual({ id: checkout.id, rows: [], events: [0, 0], fee: null });
      }
    }
    return { paid, refunded, checkouts };
  };

  beforeAll(async () => {
    app = await startTestApp();
    ledger = app.app.get(LedgerRepository);
    merchant = await registerMerchant(app, 'Loja Conciliação');
  });
  afterAll(() => app?.close());

  const paidIds: string[] = [];
  const amounts = new Map<string, number>();
  let insufficient = 0;
  let refundedCount = 0;

  /** Refunds one PAID checkout and checks the answer against the model; INSUFFICIENT_FUNDS must change nothing. */
  const refundOne = async (id: string) => {
    const amount = amounts.get(id) as number;
    const before = await balanceOf();
    expect(before.available).toBe(modelAvailable);
    const response = await post('/v1/checkouts/refund', { id });
    if (modelAvailable >= amount) {
      expectOk(response);
      expect(response.body.data).toMatchObject({ id, status: 'REFUNDED', amount });
      modelAvailable -= amount;
      refundedCount += 1;
      paidIds.splice(paidIds.indexOf(id), 1);
      expect((await ledgerRows(id)).map((row) => row.type)).toEqual(['payment', 'refund']);
    } else {
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 409, code: 'INSUFFICIENT_FUNDS' });
      insufficient += 1;
      const after = await http().get('/v1/checkouts/get').query({ id }).set(bearer(merchant.testKey));
      expect(after.body.data).toMatchObject({ status: 'PAID', refundedAt: null });
      expect((await ledgerRows(id)).map((row) => row.type)).toEqual(['payment']);
      expect(await eventCount('checkout.refunded', id)).toBe(0);
      expect(await balanceOf()).toEqual(before);
    }
  };

  it('a seeded run of ~30 checkouts, payments and refunds reconciles', async () => {
    const coupon = (await post('/v1/coupons/create', { code: 'CONCILIA10', discountKind: 'PERCENTAGE', discount: 10 })).body.data;
    expect(coupon.code).toBe('CONCILIA10');

    for (let i = 0; i < 30; i += 1) {
      const methods = rng.pick(METHOD_SETS);
      let price = rng.int(100, 25_000);
      if (methods.includes('BOLETO') && price < 400) price += 400; // keep the amount above 300 after a 10 % coupon
      const quantity = rng.int(1, 3);
      const withCoupon = rng.chance(0.2);
      const productId = await createProduct(price);
      const created = await post('/v1/checkouts/create', {
        items: [{ productId, quantity }],
        methods,
        ...(withCoupon ? { coupon: 'concilia10' } : {}),
      });
      expectOk(created, 201);
      const checkout: Checkout = created.body.data;
      const subtotal = price * quantity;
      // 10 % discount rounded half up.
      const discount = withCoupon ? Math.floor((subtotal * 1000 + 5000) / 10_000) : 0;
      expect(checkout).toMatchObject({ subtotal, discount, amount: subtotal - discount, methods });
      amounts.set(checkout.id, checkout.amount);

      if (rng.chance(0.75)) {
        const method = rng.pick(methods);
        const paid = await post('/v1/checkouts/simulate-payment', { id: checkout.id, method });
        expectOk(paid);
        const fee = expectedFee(checkout.amount, method);
        expect(paid.body.data).toMatchObject({ status: 'PAID', method, fee, netAmount: checkout.amount - fee });
        modelAvailable += checkout.amount - fee;
        paidIds.push(checkout.id);
      } else if (rng.chance(0.3)) {
        expectOk(await post('/v1/checkouts/cancel', { id: checkout.id }));
      }

      if (paidIds.length > 0 && rng.chance(0.4)) await refundOne(rng.pick(paidIds));
    }
    // The fixed seed gives a run with both outcomes; a changed generator must not silently test less.
    expect(refundedCount).toBeGreaterThan(0);
    expect(insufficient).toBeGreaterThan(0);

    const { paid, refunded, checkouts } = await reconcile();
    expect(checkouts).toHaveLength(30);
    expect(refunded).toHaveLength(refundedCount);
    expect(paid.map((c) => c.id).sort()).toEqual([...paidIds].sort());
    expect((await http().get('/v1/coupons/get').query({ id: coupon.id }).set(bearer(merchant.testKey))).body.data.redeemsCount).toBe(
      checkouts.filter((c) => c.discount > 0 && c.status !== 'CANCELLED').length,
    );
  });

  it('a concurrent burst of payments and refunds (with duplicates) still reconciles', async () => {
    const fresh: Checkout[] = [];
    for (let i = 0; i < 12; i += 1) {
      const productId = await createProduct(rng.int(500, 30_000));
      const created = await post('/v1/checkouts/create', { items: [{ productId, quantity: 1 }], methods: ['PIX', 'CARD', 'BOLETO'] });
      expectOk(created, 201);
      fresh.push(created.body.data);
      amounts.set(created.body.data.id, created.body.data.amount);
    }
    const oldPaid = [...paidIds];
    expect(oldPaid.length).toBeGreaterThan(3);

    type Outcome = { kind: 'pay' | 'refund'; id: string; status: number; code: string | null; body: Checkout | null };
    const run = async (kind: 'pay' | 'refund', id: string, body: object): Promise<Outcome> => {
      const response = await post(`/v1/checkouts/${kind === 'pay' ? 'simulate-payment' : 'refund'}`, body);
      return { kind, id, status: response.status, code: response.body.error?.code ?? null, body: response.body.data };
    };
    const requests: Array<() => Promise<Outcome>> = [];
    for (const checkout of fresh) {
      const copies = rng.int(1, 3);
      for (let c = 0; c < copies; c += 1) {
        const method = rng.pick(['PIX', 'CARD', 'BOLETO'] as const);
        requests.push(() => run('pay', checkout.id, { id: checkout.id, method }));
      }
      // Refunding a checkout that is being paid at the same moment: INVALID_STATE, or REFUNDED if it got paid first.
      if (rng.chance(0.3)) requests.push(() => run('refund', checkout.id, { id: checkout.id }));
    }
    for (const id of oldPaid) {
      const copies = rng.int(1, 3);
      for (let c = 0; c < copies; c += 1) requests.push(() => run('refund', id, { id }));
    }
    // Shuffle (Fisher–Yates with the seeded generator), then fire everything at once.
    for (let i = requests.length - 1; i > 0; i -= 1) {
      const j = rng.int(0, i);
      [requests[i], requests[j]] = [requests[j], requests[i]];
    }
    const outcomes = await Promise.all(requests.map((request) => request()));

    for (const outcome of outcomes) {
      const label = `${outcome.kind} ${outcome.id}: ${outcome.status} ${outcome.code}`;
      if (outcome.kind === 'pay') {
        expect([label, [200, 409].includes(outcome.status)]).toEqual([label, true]);
        if (outcome.status === 409) expect(outcome.code).toBe('INVALID_STATE');
      } else {
        expect([label, [200, 409].includes(outcome.status)]).toEqual([label, true]);
        if (outcome.status === 200) expect(outcome.body?.status).toBe('REFUNDED');
        else expect(['INSUFFICIENT_FUNDS', 'INVALID_STATE']).toContain(outcome.code);
      }
    }
    // Every fresh checkout got paid exactly once.
    for (const checkout of fresh) {
      const wins = outcomes.filter((o) => o.kind === 'pay' && o.id === checkout.id && o.status === 200);
      expect({ id: checkout.id, wins: wins.length }).toEqual({ id: checkout.id, wins: 1 });
      const win = wins[0].body as Checkout;
      expect(win.fee).toBe(expectedFee(win.amount, win.method as Method));
    }
    // A refund that answered 200 left its checkout REFUNDED; every answer for one checkout agrees.
    const checkouts = await allCheckouts();
    const statusOf = new Map(checkouts.map((c) => [c.id, c.status]));
    for (const outcome of outcomes.filter((o) => o.kind === 'refund' && o.status === 200)) {
      expect(statusOf.get(outcome.id)).toBe('REFUNDED');
    }
    for (const outcome of outcomes.filter((o) => o.kind === 'refund' && o.code === 'INVALID_STATE')) {
      // Only a checkout that was PENDING when the refund ran can answer INVALID_STATE.
      expect(fresh.map((c) => c.id)).toContain(outcome.id);
    }

    // The model from the final state: every payment credited its net, every refund debited its amount.
    modelAvailable = checkouts.reduce((sum, c) => {
      if (c.status === 'PAID') return sum + (c.netAmount as number);
      if (c.status === 'REFUNDED') return sum + (c.netAmount as number) - c.amount;
      return sum;
    }, 0);
    const { refunded } = await reconcile();
    expect(refunded.length).toBeGreaterThan(refundedCount);
  });

  it('parallel refunds larger than the balance never overdraw it', async () => {
    const owner = await registerMerchant(app, 'Loja Saldo Justo');
    const productId = (await post('/v1/products/create', { externalId: 'sku-10000', name: 'Cem reais', price: 10_000 }, owner.testKey)).body.data
      .id as string;
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const created = await post('/v1/checkouts/create', { items: [{ productId, quantity: 1 }] }, owner.testKey);
      expectOk(created, 201);
      expectOk(await post('/v1/checkouts/simulate-payment', { id: created.body.data.id, method: 'PIX' }, owner.testKey));
      ids.push(created.body.data.id);
    }
    // 5 × (10000 − 80) = 49600: room for four refunds of 10000, never a fifth (9600 left).
    expect(await balanceOf(owner.testKey)).toEqual({ available: 49_600, pending: 0, blocked: 0 });
    const responses = await Promise.all(
      [...ids, ...ids, ...ids].map((id) => post('/v1/checkouts/refund', { id }, owner.testKey).then((response) => ({ id, response }))),
    );
    for (const { response } of responses) {
      expect([200, 409]).toContain(response.status);
      if (response.status === 200) expect(response.body.data.status).toBe('REFUNDED');
      else expect(response.body.error.code).toBe('INSUFFICIENT_FUNDS');
    }
    const checkouts = await allCheckouts(owner.testKey);
    expect(checkouts.map((c) => c.status).sort()).toEqual(['PAID', 'REFUNDED', 'REFUNDED', 'REFUNDED', 'REFUNDED']);
    const stillPaid = checkouts.find((c) => c.status === 'PAID') as Checkout;
    // The one left PAID answered INSUFFICIENT_FUNDS to every request; the others answered 200 to every request.
    for (const { id, response } of responses) expect([id, response.status]).toEqual([id, id === stillPaid.id ? 409 : 200]);
    expect(await balanceOf(owner.testKey)).toEqual({ available: 9600, pending: 0, blocked: 0 });
    await reconcile(owner, 9600);
  });

  it('other stores and the live mode are untouched', async () => {
    const rival = await registerMerchant(app, 'Loja Vizinha');
    const product = (await post('/v1/products/create', { externalId: 'sku-rival', name: 'X', price: 5000 }, rival.testKey)).body.data;
    const checkout = (await post('/v1/checkouts/create', { items: [{ productId: product.id, quantity: 1 }] }, rival.testKey)).body.data;
    expectOk(await post('/v1/checkouts/simulate-payment', { id: checkout.id }, rival.testKey));
    expect(await balanceOf(rival.testKey)).toEqual({ available: 4920, pending: 0, blocked: 0 });

    const liveKey = (await createKey(app, merchant.session, { mode: 'live', permissions: ['*'] })).key;
    expect(await balanceOf(liveKey)).toEqual({ available: 0, pending: 0, blocked: 0 });
    expect(await allTransactions(liveKey)).toEqual([]);
    expect(await ledger.sumEntries({ storeId: merchant.storeId, mode: 'live' })).toEqual({ available: 0, pending: 0, blocked: 0 });

    // The main store's books did not move.
    await reconcile();
  });
});
