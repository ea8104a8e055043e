import type { Response } from 'supertest';
import { expectError, expectValidationField } from './support/assertions';
import { LedgerRepository } from '../src/modules/ledger/ledger.repository';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Disputes — API.md §11, with §9 (charge lifecycle: PAID → UNDER_DISPUTE → PAID | CHARGED_BACK), §10 (sandbox,
 * test card 4000000000000259), §6 (ledger and balances), §13 (dispute.created|updated|won|lost) and §2.4
 * (disputes:read / disputes:write; simulate-dispute needs the charge family's write permission).
 *
 * Every money test uses a seller of its own, so balances start at zero and every figure is exact.
 * Fees by hand (API.md §7): PIX 80 · CARD 1x 3.50 % + 60 → 10000: 350 + 60 = 410.
 *   pay 10000 by PIX        → available 9920
 *   dispute it              → available 9920 − 10000 = −80, blocked 10000
 *   won                     → available −80 + 10000 = 9920, blocked 0
 *   lost / accept           → available −80, blocked 0
 */
jest.setTimeout(60_000);

const DISPUTE_ID = /^disp_[0-9A-Z]{26}$/;
const EVENT_ID = /^evt_[0-9A-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SEVEN_DAYS_MS = 7 * 24 * 3_600_000;
const MISSING_DISPUTE = 'disp_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const MISSING_CHECKOUT = 'bill_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const DISPUTE_CARD = '4000000000000259';
const DISPUTE_FIELDS = ['amount', 'chargeId', 'createdAt', 'devMode', 'evidence', 'id', 'reason', 'resolvedAt', 'respondBy', 'status'];

interface Dispute {
  id: string;
  chargeId: string;
  amount: number;
  reason: string;
  status: string;
  evidence: Record<string, string> | null;
  respondBy: string;
  createdAt: string;
  resolvedAt: string | null;
  devMode: boolean;
}
interface Charge {
  id: string;
  status: string;
  amount: number;
  fee: number | null;
  netAmount: number | null;
  paidAt: string | null;
  paymentLinkId?: string | null;
  [field: string]: unknown;
}
interface Balance {
  available: number;
  pending: number;
  blocked: number;
}

function expectOk<T = unknown>(response: Response, status = 200): T {
  expect({ status: response.status, error: response.body?.error ?? null }).toEqual({ status, error: null });
  expect(response.body.success).toBe(true);
  return response.body.data as T;
}

describe('Disputes — /v1/disputes (API.md §11)', () => {
  let app: TestApp;
  let merchant: RegisteredMerchant;
  let rival: RegisteredMerchant;
  let liveKey: string;

  const http = () => app.http();
  const db = () => app.database.db;

  let counter = 0;
  const unique = (label: string) => {
    counter += 1;
    return `${label}-${counter}-${Date.now() % 1_000_000}`;
  };

  const postTo = (key: string, path: string, body: unknown) =>
    http()
      .post(path)
      .set(bearer(key))
      .send(body as object);
  const disputes = (key: string, route: string, body: unknown) => postTo(key, `/v1/disputes/${route}`, body);
  const disputeCheckout = (key: string, body: Record<string, unknown>) => postTo(key, '/v1/checkouts/simulate-dispute', body);
  const disputeTransparent = (key: string, body: Record<string, unknown>) => postTo(key, '/v1/transparents/simulate-dispute', body);
  const listDisputes = (key: string, query: Record<string, string | number> = {}) =>
    http().get('/v1/disputes/list').query(query).set(bearer(key));
  const getDisputeRaw = (key: string, id: string) => http().get('/v1/disputes/get').query({ id }).set(bearer(key));
  const getDispute = async (key: string, id: string): Promise<Dispute> => expectOk<Dispute>(await getDisputeRaw(key, id));

  /** A new merchant with an empty balance. */
  const seller = (name = 'Loja Disputa') => registerMerchant(app, name);

  const createProduct = async (key: string, price: number) =>
    expectOk<{ id: string }>(
      await postTo(key, '/v1/products/create', { externalId: unique('sku'), name: 'Produto', price }),
      201,
    );
  const pendingCheckout = async (key: string, amount: number, fields: Record<string, unknown> = {}): Promise<Charge> => {
    const product = await createProduct(key, amount);
    return expectOk<Charge>(await postTo(key, '/v1/checkouts/create', { items: [{ productId: product.id, quantity: 1 }], ...fields }), 201);
  };
  /** A checkout of `amount` paid by PIX (fee 80). */
  const paidCheckout = async (key: string, amount: number): Promise<Charge> => {
    const checkout = await pendingCheckout(key, amount);
    const paid = expectOk<Charge>(await postTo(key, '/v1/checkouts/simulate-payment', { id: checkout.id, method: 'PIX' }));
    expect({ status: paid.status, fee: paid.fee, netAmount: paid.netAmount }).toEqual({ status: 'PAID', fee: 80, netAmount: amount - 80 });
    return paid;
  };
  const getCheckout = async (key: string, id: string): Promise<Charge> =>
    expectOk<Charge>(await http().get('/v1/checkouts/get').query({ id }).set(bearer(key)));
  const getTransparent = async (key: string, id: string): Promise<Charge> =>
    expectOk<Charge>(await http().get('/v1/transparents/get').query({ id }).set(bearer(key)));
  /** Opens a dispute on a PAID checkout and answers the dispute. */
  const openOn = async (key: string, checkoutId: string, reason?: string): Promise<Dispute> => {
    const charge = expectOk<Charge>(await disputeCheckout(key, reason === undefined ? { id: checkoutId } : { id: checkoutId, reason }));
    expect(charge.status).toBe('UNDER_DISPUTE');
    const page = expectOk<{ items: Dispute[] }>(await listDisputes(key, { chargeId: checkoutId }));
    expect(page.items).toHaveLength(1);
    return page.items[0];
  };
  const balanceOf = async (key: string): Promise<Balance> => {
    const response = await http().get('/v1/stores/list').set(bearer(key));
    return expectOk<{ items: Array<{ balance: Balance }> }>(response).items[0].balance;
  };
  /** Ledger rows behind one charge, as comparable tuples (order-independent). */
  const ledgerOf = async (sourceId: string) => {
    const rows = await db().selectFrom('ledger_entries').select(['type', 'bucket', 'amount']).where('source_id', '=', sourceId).execute();
    return rows.map((row) => `${row.type} ${row.bucket} ${Number(row.amount)}`).sort();
  };
  /** Stored events of `type` whose object is `objectId`. */
  const eventsOf = async (objectId: string, type: string) => {
    const rows = await db().selectFrom('events').selectAll().where('type', '=', type).where('data', 'like', `%${objectId}%`).execute();
    return rows
      .map((row) => ({ ...row, parsed: JSON.parse(row.data) as { object: Record<string, unknown> } }))
      .filter((row) => row.parsed.object.id === objectId);
  };
  /** Every event type of one store, sorted. */
  const eventTypes = async (storeId: string) =>
    (await db().selectFrom('events').select('type').where('store_id', '=', storeId).execute()).map((row) => row.type).sort();
  const disputeRowsOf = (chargeId: string) => db().selectFrom('disputes').selectAll().where('charge_id', '=', chargeId).execute();
  const countRows = async (table: 'events' | 'ledger_entries' | 'disputes', storeId: string): Promise<number> => {
    const row = await db()
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('store_id', '=', storeId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  /** What must not change when a request is refused: rows written for the store, and the balance. */
  const snapshot = async (who: RegisteredMerchant) => ({
    events: await countRows('events', who.storeId),
    ledger: await countRows('ledger_entries', who.storeId),
    disputes: await countRows('disputes', who.storeId),
    balance: await balanceOf(who.testKey),
  });

  /** A PIX transparent charge of `amount`, paid via simulate-payment (fee 80). */
  const paidTransparent = async (key: string, amount: number): Promise<Charge> => {
    const created = expectOk<Charge>(await postTo(key, '/v1/transparents/create', { method: 'PIX', data: { amount } }), 201);
    const paid = expectOk<Charge>(await postTo(key, '/v1/transparents/simulate-payment', { id: created.id }));
    expect({ status: paid.status, fee: paid.fee, netAmount: paid.netAmount }).toEqual({ status: 'PAID', fee: 80, netAmount: amount - 80 });
    return paid;
  };
  const cardData = (number: string, amount: number) => ({
    method: 'CARD',
    data: { amount, card: { number, holderName: 'JOAO DA SILVA', expMonth: 12, expYear: 2035, cvv: '123' } },
  });

  beforeAll(async () => {
    app = await startTestApp();
    merchant = await registerMerchant(app, 'Loja A');
    rival = await registerMerchant(app, 'Loja B');
    liveKey = (await createKey(app, merchant.session, { mode: 'live', permissions: ['*'] })).key;
  });
  afterAll(() => app?.close());

  describe('simulate-dispute on a checkout', () => {
    it('opens a dispute on a PAID checkout: UNDER_DISPUTE, the dispute object, amount held (available negative), ledger and dispute.created', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 10_000);
      expect(await balanceOf(shop.testKey)).toEqual({ available: 9920, pending: 0, blocked: 0 });

      const response = await disputeCheckout(shop.testKey, { id: checkout.id });
      const disputed = expectOk<Charge>(response);
      expect(disputed).toMatchObject({ id: checkout.id, status: 'UNDER_DISPUTE', amount: 10_000, fee: 80, netAmount: 9920, paidAt: checkout.paidAt });
      // The action answers the charge as get returns it right after (API.md §1.1).
      expect(await getCheckout(shop.testKey, checkout.id)).toEqual(disputed);

      const page = expectOk<{ items: Dispute[]; hasMore: boolean; next: string | null }>(
        await listDisputes(shop.testKey, { chargeId: checkout.id }),
      );
      expect(page.hasMore).toBe(false);
      expect(page.next).toBeNull();
      expect(page.items).toHaveLength(1);
      const dispute = page.items[0];
      expect(Object.keys(dispute).sort()).toEqual(DISPUTE_FIELDS);
      expect(dispute).toMatchObject({
        chargeId: checkout.id,
        amount: 10_000,
        reason: 'FRAUD',
        status: 'OPEN',
        evidence: null,
        resolvedAt: null,
        devMode: true,
      });
      expect(dispute.id).toMatch(DISPUTE_ID);
      expect(dispute.createdAt).toMatch(ISO);
      expect(dispute.respondBy).toMatch(ISO);
      const window = Date.parse(dispute.respondBy) - Date.parse(dispute.createdAt);
      expect(window).toBeGreaterThanOrEqual(SEVEN_DAYS_MS);
      expect(window).toBeLessThan(SEVEN_DAYS_MS + 1000);
      expect(await getDispute(shop.testKey, dispute.id)).toEqual(dispute);

      // 9920 − 10000 = −80 available; 10000 blocked.
      expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 10_000 });
      expect(await ledgerOf(checkout.id)).toEqual(
        ['dispute_hold available -10000', 'dispute_hold blocked 10000', 'payment available 9920'].sort(),
      );

      const created = await eventsOf(dispute.id, 'dispute.created');
      expect(created).toHaveLength(1);
      expect(created[0].id).toMatch(EVENT_ID);
      expect(created[0].store_id).toBe(shop.storeId);
      expect(created[0].mode).toBe('test');
      expect(created[0].parsed).toEqual({ object: await getDispute(shop.testKey, dispute.id) });
      // Opening fires dispute.created only: no checkout.* event for the charge's move to UNDER_DISPUTE.
      expect(await eventTypes(shop.storeId)).toEqual(['checkout.created', 'checkout.paid', 'dispute.created']);
    });

    it('honours an explicit reason; an unknown reason is a 400 and writes nothing', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 2500);
      const before = await snapshot(shop);
      for (const reason of ['CHANGED_MIND', 'not_received', '', 42, ['FRAUD']]) {
        const refused = await disputeCheckout(shop.testKey, { id: checkout.id, reason });
        expect([reason, refused.status]).toEqual([reason, 400]);
        expectValidationField(refused, 'reason');
      }
      expect(await snapshot(shop)).toEqual(before);
      expect((await getCheckout(shop.testKey, checkout.id)).status).toBe('PAID');

      const dispute = await openOn(shop.testKey, checkout.id, 'NOT_RECEIVED');
      expect(dispute).toMatchObject({ reason: 'NOT_RECEIVED', amount: 2500, status: 'OPEN' });
      // 2420 − 2500 = −80.
      expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 2500 });
    });

    it('refuses reason null with 400 on field reason (a sent field must be valid), never a 500, and writes nothing', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 2500);
      const pix = await paidTransparent(shop.testKey, 2500);
      expectValidationField(await disputeCheckout(shop.testKey, { id: checkout.id, reason: null }), 'reason');
      expectValidationField(await disputeTransparent(shop.testKey, { id: pix.id, reason: null }), 'reason');
      expect(expectOk<{ items: Dispute[] }>(await listDisputes(shop.testKey)).items).toEqual([]);
      // 2 × (2500 − 80): both charges still PAID, nothing held.
      expect(await balanceOf(shop.testKey)).toEqual({ available: 4840, pending: 0, blocked: 0 });
    });

    it('accepts every reason of the contract', async () => {
      const shop = await seller();
      for (const reason of ['FRAUD', 'NOT_RECEIVED', 'DUPLICATE', 'OTHER']) {
        const checkout = await paidCheckout(shop.testKey, 1000);
        expect((await openOn(shop.testKey, checkout.id, reason)).reason).toBe(reason);
      }
      // 4 × (920 − 1000) = −320 available, 4 × 1000 blocked.
      expect(await balanceOf(shop.testKey)).toEqual({ available: -320, pending: 0, blocked: 4000 });
    });

    it('refuses PENDING, REFUNDED, UNDER_DISPUTE and CANCELLED checkouts with 409 INVALID_STATE and writes nothing', async () => {
      const shop = await seller();
      // A 20000 cushion (19920) so that the refund below has the funds.
      await paidCheckout(shop.testKey, 20_000);
      const pending = await pendingCheckout(shop.testKey, 3000);
      const refunded = await paidCheckout(shop.testKey, 5000);
      expect(expectOk<Charge>(await postTo(shop.testKey, '/v1/checkouts/refund', { id: refunded.id })).status).toBe('REFUNDED');
      const cancelled = await pendingCheckout(shop.testKey, 4000);
      expect(expectOk<Charge>(await postTo(shop.testKey, '/v1/checkouts/cancel', { id: cancelled.id })).status).toBe('CANCELLED');
      const disputed = await paidCheckout(shop.testKey, 6000);
      await openOn(shop.testKey, disputed.id);
      // 19920 + 4920 − 5000 + 5920 − 6000 = 19760 available, 6000 blocked.
      expect(await balanceOf(shop.testKey)).toEqual({ available: 19_760, pending: 0, blocked: 6000 });

      const before = await snapshot(shop);
      for (const [label, id, status] of [
        ['pending', pending.id, 'PENDING'],
        ['refunded', refunded.id, 'REFUNDED'],
        ['cancelled', cancelled.id, 'CANCELLED'],
        ['under dispute', disputed.id, 'UNDER_DISPUTE'],
      ]) {
        const refused = await disputeCheckout(shop.testKey, { id });
        expect([label, refused.status, refused.body.error?.code]).toEqual([label, 409, 'INVALID_STATE']);
        expect([label, (await getCheckout(shop.testKey, id)).status]).toEqual([label, status]);
      }
      expect(await snapshot(shop)).toEqual(before);
      expect(await disputeRowsOf(pending.id)).toHaveLength(0);
      expect(await disputeRowsOf(refunded.id)).toHaveLength(0);
      expect(await disputeRowsOf(disputed.id)).toHaveLength(1);
    });

    it('answers 404 for an unknown checkout, another merchant’s checkout and a transparent id; 400 without id', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 3000);
      const pix = await paidTransparent(shop.testKey, 3000);
      const before = await snapshot(shop);
      expectError(await disputeCheckout(shop.testKey, { id: MISSING_CHECKOUT }), 404, 'NOT_FOUND');
      expectError(await disputeCheckout(rival.testKey, { id: checkout.id }), 404, 'NOT_FOUND');
      expectError(await disputeCheckout(shop.testKey, { id: pix.id }), 404, 'NOT_FOUND');
      expectError(await disputeTransparent(shop.testKey, { id: checkout.id }), 404, 'NOT_FOUND');
      expectValidationField(await disputeCheckout(shop.testKey, {}), 'id');
      expectValidationField(await disputeCheckout(shop.testKey, { id: checkout.id, extra: 1 }), 'extra');
      expect(await snapshot(shop)).toEqual(before);
      expect((await getCheckout(shop.testKey, checkout.id)).status).toBe('PAID');
    });

    it('is sandbox only: a live key gets 403 SANDBOX_ONLY and nothing is written', async () => {
      const checkout = await paidCheckout(merchant.testKey, 3000);
      const livePending = expectOk<Charge>(
        await postTo(liveKey, '/v1/checkouts/create', {
          items: [{ productId: (await createProduct(liveKey, 3000)).id, quantity: 1 }],
        }),
        201,
      );
      const before = await snapshot(merchant);
      const liveBalance = await balanceOf(liveKey);
      expectError(await disputeCheckout(liveKey, { id: checkout.id }), 403, 'SANDBOX_ONLY');
      expectError(await disputeCheckout(liveKey, { id: livePending.id }), 403, 'SANDBOX_ONLY');
      expectError(await disputeTransparent(liveKey, { id: checkout.id }), 403, 'SANDBOX_ONLY');
      expect(await snapshot(merchant)).toEqual(before);
      expect(await balanceOf(liveKey)).toEqual(liveBalance);
      expect((await getCheckout(merchant.testKey, checkout.id)).status).toBe('PAID');
      expect(await disputeRowsOf(checkout.id)).toHaveLength(0);
      expect(await disputeRowsOf(livePending.id)).toHaveLength(0);
    });

    it('works on a payment-link payment through its checkout id', async () => {
      const shop = await seller();
      const product = await createProduct(shop.testKey, 3000);
      const link = expectOk<{ id: string }>(
        await postTo(shop.testKey, '/v1/payment-links/create', { name: 'Kit', items: [{ productId: product.id, quantity: 2 }] }),
        201,
      );
      const payment = expectOk<Charge>(await postTo(shop.testKey, '/v1/payment-links/simulate-payment', { id: link.id }));
      expect(payment).toMatchObject({ status: 'PAID', paymentLinkId: link.id, amount: 6000, method: 'PIX', fee: 80, netAmount: 5920 });

      const disputed = expectOk<Charge>(await disputeCheckout(shop.testKey, { id: payment.id, reason: 'DUPLICATE' }));
      expect(disputed).toMatchObject({ id: payment.id, status: 'UNDER_DISPUTE', paymentLinkId: link.id });
      const [dispute] = expectOk<{ items: Dispute[] }>(await listDisputes(shop.testKey, { chargeId: payment.id })).items;
      expect(dispute).toMatchObject({ chargeId: payment.id, amount: 6000, reason: 'DUPLICATE', status: 'OPEN' });
      // 5920 − 6000 = −80.
      expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 6000 });
      const payments = expectOk<{ items: Charge[] }>(
        await http().get('/v1/payment-links/payments').query({ id: link.id }).set(bearer(shop.testKey)),
      );
      expect(payments.items.map((item) => [item.id, item.status])).toEqual([[payment.id, 'UNDER_DISPUTE']]);
      // The link's refund route refuses the disputed payment too.
      const before = await snapshot(shop);
      expectError(await postTo(shop.testKey, '/v1/payment-links/refund', { id: payment.id }), 409, 'INVALID_STATE');
      expect(await snapshot(shop)).toEqual(before);
    });
  });

  describe('simulate-dispute on a transparent charge', () => {
    it('puts a PIX charge paid via simulate-payment UNDER_DISPUTE and holds its amount', async () => {
      const shop = await seller();
      const pix = await paidTransparent(shop.testKey, 5000);
      expect(await balanceOf(shop.testKey)).toEqual({ available: 4920, pending: 0, blocked: 0 });

      const disputed = expectOk<Charge>(await disputeTransparent(shop.testKey, { id: pix.id }));
      expect(disputed).toMatchObject({ id: pix.id, method: 'PIX', status: 'UNDER_DISPUTE', amount: 5000, netAmount: 4920 });
      expect(await getTransparent(shop.testKey, pix.id)).toEqual(disputed);
      const page = expectOk<{ items: Dispute[] }>(await listDisputes(shop.testKey, { chargeId: pix.id }));
      expect(page.items).toHaveLength(1);
      expect(page.items[0]).toMatchObject({ chargeId: pix.id, amount: 5000, reason: 'FRAUD', status: 'OPEN', devMode: true });
      // 4920 − 5000 = −80.
      expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 5000 });
      expect(await ledgerOf(pix.id)).toEqual(['dispute_hold available -5000', 'dispute_hold blocked 5000', 'payment available 4920']);
      expect(await eventsOf(page.items[0].id, 'dispute.created')).toHaveLength(1);

      // A second dispute of the same charge, or a refund of it: 409, nothing written.
      const before = await snapshot(shop);
      expectError(await disputeTransparent(shop.testKey, { id: pix.id }), 409, 'INVALID_STATE');
      expectError(await postTo(shop.testKey, '/v1/transparents/refund', { id: pix.id }), 409, 'INVALID_STATE');
      expect(await snapshot(shop)).toEqual(before);
    });

    it('refuses a PENDING transparent with 409 INVALID_STATE', async () => {
      const shop = await seller();
      const created = expectOk<Charge>(await postTo(shop.testKey, '/v1/transparents/create', { method: 'PIX', data: { amount: 5000 } }), 201);
      const before = await snapshot(shop);
      expectError(await disputeTransparent(shop.testKey, { id: created.id }), 409, 'INVALID_STATE');
      expect(await snapshot(shop)).toEqual(before);
      expect((await getTransparent(shop.testKey, created.id)).status).toBe('PENDING');
    });

    it('test card 4000000000000259: 201 UNDER_DISPUTE with one OPEN dispute; available = netAmount − amount, blocked = amount', async () => {
      const shop = await seller();
      const response = await postTo(shop.testKey, '/v1/transparents/create', cardData(DISPUTE_CARD, 10_000));
      const charge = expectOk<Charge>(response, 201);
      // CARD 1x: 10000 × 3.5 % = 350, + 60 = 410 → net 9590.
      expect(charge).toMatchObject({ status: 'UNDER_DISPUTE', amount: 10_000, fee: 410, netAmount: 9590, card: { brand: 'VISA', last4: '0259' } });
      expect(charge.paidAt).toMatch(ISO);
      expect(await getTransparent(shop.testKey, charge.id)).toEqual(charge);

      const page = expectOk<{ items: Dispute[] }>(await listDisputes(shop.testKey));
      expect(page.items).toHaveLength(1);
      expect(page.items[0]).toMatchObject({ chargeId: charge.id, amount: 10_000, reason: 'FRAUD', status: 'OPEN', evidence: null, resolvedAt: null });
      // 9590 − 10000 = −410.
      expect(await balanceOf(shop.testKey)).toEqual({ available: -410, pending: 0, blocked: 10_000 });
      expect(await ledgerOf(charge.id)).toEqual(['dispute_hold available -10000', 'dispute_hold blocked 10000', 'payment available 9590']);
      expect(await eventTypes(shop.storeId)).toEqual(['dispute.created', 'transparent.created', 'transparent.paid']);
      const [created] = await eventsOf(page.items[0].id, 'dispute.created');
      expect(created.parsed).toEqual({ object: page.items[0] });

      // It is an ordinary dispute: won returns it to PAID and the 10000 to available (−410 + 10000 = 9590).
      expectOk(await disputes(shop.testKey, 'simulate-resolution', { id: page.items[0].id, outcome: 'won' }));
      expect((await getTransparent(shop.testKey, charge.id)).status).toBe('PAID');
      expect(await balanceOf(shop.testKey)).toEqual({ available: 9590, pending: 0, blocked: 0 });
    });

    it('an ordinary approving card (4242…) opens no dispute', async () => {
      const shop = await seller();
      const charge = expectOk<Charge>(await postTo(shop.testKey, '/v1/transparents/create', cardData('4242424242424242', 10_000)), 201);
      expect(charge.status).toBe('PAID');
      expect(await countRows('disputes', shop.storeId)).toBe(0);
      expect(await balanceOf(shop.testKey)).toEqual({ available: 9590, pending: 0, blocked: 0 });
    });

    it('the hosted page’s card form with 4000000000000259 pays and disputes the checkout at once', async () => {
      const shop = await seller();
      const checkout = await pendingCheckout(shop.testKey, 10_000, { methods: ['CARD'] });
      const page = await http().get(`/pay/${checkout.id}`);
      expect(page.status).toBe(200);
      const csrf = ([] as string[]).concat(page.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith('csrf='));
      const token = /<input type="hidden" name="_csrf" value="([^"]+)">/.exec(page.text)?.[1];
      expect(csrf).toBeDefined();
      expect(token).toBeDefined();
      const posted = await http()
        .post(`/pay/${checkout.id}/card`)
        .type('form')
        .redirects(0)
        .set('Cookie', csrf!.split(';')[0])
        .send({ number: DISPUTE_CARD, holderName: 'PEDRO', expMonth: '12', expYear: '2099', cvv: '123', _csrf: token! });
      expect([posted.status, posted.headers.location]).toEqual([303, `/pay/${checkout.id}`]);

      expect(await getCheckout(shop.testKey, checkout.id)).toMatchObject({ status: 'UNDER_DISPUTE', fee: 410, netAmount: 9590 });
      const [dispute] = expectOk<{ items: Dispute[] }>(await listDisputes(shop.testKey, { chargeId: checkout.id })).items;
      expect(dispute).toMatchObject({ amount: 10_000, status: 'OPEN', reason: 'FRAUD' });
      expect(await balanceOf(shop.testKey)).toEqual({ available: -410, pending: 0, blocked: 10_000 });
    });
  });

  describe('submit-evidence', () => {
    it('moves OPEN → UNDER_REVIEW, stores the evidence and records dispute.updated; a second submission is 409', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 10_000);
      const opened = await openOn(shop.testKey, checkout.id);
      const evidence = { text: 'Delivered on 2026-11-02, signed by the buyer.', trackingCode: 'BR123456789BR' };

      const reviewed = expectOk<Dispute>(await disputes(shop.testKey, 'submit-evidence', { id: opened.id, evidence }));
      expect(reviewed).toEqual({ ...opened, status: 'UNDER_REVIEW', evidence });
      expect(await getDispute(shop.testKey, opened.id)).toEqual(reviewed);
      const updated = await eventsOf(opened.id, 'dispute.updated');
      expect(updated).toHaveLength(1);
      expect(updated[0].parsed).toEqual({ object: reviewed });
      // The charge stays disputed and the money stays held.
      expect((await getCheckout(shop.testKey, checkout.id)).status).toBe('UNDER_DISPUTE');
      expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 10_000 });

      const before = await snapshot(shop);
      const again = await disputes(shop.testKey, 'submit-evidence', { id: opened.id, evidence: { text: 'Another story' } });
      expectError(again, 409, 'INVALID_STATE');
      expect(await snapshot(shop)).toEqual(before);
      expect((await getDispute(shop.testKey, opened.id)).evidence).toEqual(evidence);
      expect(await eventsOf(opened.id, 'dispute.updated')).toHaveLength(1);
    });

    it('rejects invalid evidence with 400 and leaves the dispute OPEN', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 1000);
      const opened = await openOn(shop.testKey, checkout.id);
      const manyFields: Record<string, string> = { text: 'ok' };
      for (let i = 1; i <= 20; i += 1) manyFields[`f${i}`] = 'v';
      const before = await snapshot(shop);
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ['missing evidence', { id: opened.id }, 'evidence'],
        ['evidence not an object', { id: opened.id, evidence: 'Delivered' }, 'evidence'],
        ['evidence an array', { id: opened.id, evidence: [{ text: 'x' }] }, 'evidence'],
        ['missing text', { id: opened.id, evidence: { trackingCode: 'BR1' } }, 'evidence'],
        ['empty text', { id: opened.id, evidence: { text: '' } }, 'evidence'],
        ['text of 20001 characters', { id: opened.id, evidence: { text: 'a'.repeat(20_001) } }, 'evidence'],
        ['non-string extra field', { id: opened.id, evidence: { text: 'ok', trackingCode: 123 } }, 'evidence'],
        ['21 fields', { id: opened.id, evidence: manyFields }, 'evidence'],
        ['key of 41 characters', { id: opened.id, evidence: { text: 'ok', ['k'.repeat(41)]: 'v' } }, 'evidence'],
        ['unknown body field', { id: opened.id, evidence: { text: 'ok' }, note: 'x' }, 'note'],
        ['missing id', { evidence: { text: 'ok' } }, 'id'],
      ];
      for (const [label, body, field] of cases) {
        const refused = await disputes(shop.testKey, 'submit-evidence', body);
        expect([label, refused.status, refused.body.error?.code]).toEqual([label, 400, 'VALIDATION_ERROR']);
        expectValidationField(refused, field);
      }
      expect(await snapshot(shop)).toEqual(before);
      expect(await getDispute(shop.testKey, opened.id)).toEqual(opened);

      // The boundary itself is accepted: exactly 20000 characters.
      const ok = expectOk<Dispute>(await disputes(shop.testKey, 'submit-evidence', { id: opened.id, evidence: { text: 'a'.repeat(20_000) } }));
      expect(ok.status).toBe('UNDER_REVIEW');
      expect(ok.evidence?.text).toHaveLength(20_000);
    });

    it('answers 404 for an unknown dispute', async () => {
      expectError(await disputes(merchant.testKey, 'submit-evidence', { id: MISSING_DISPUTE, evidence: { text: 'ok' } }), 404, 'NOT_FOUND');
    });
  });

  describe('resolution', () => {
    it('won (after evidence): WON with resolvedAt, charge back to PAID, blocked → available exactly, dispute.won; refund then works', async () => {
      const shop = await seller();
      await paidCheckout(shop.testKey, 20_000); // cushion: 19920
      const checkout = await paidCheckout(shop.testKey, 10_000); // 19920 + 9920 = 29840
      expect(await balanceOf(shop.testKey)).toEqual({ available: 29_840, pending: 0, blocked: 0 });
      const opened = await openOn(shop.testKey, checkout.id); // 29840 − 10000 = 19840
      expect(await balanceOf(shop.testKey)).toEqual({ available: 19_840, pending: 0, blocked: 10_000 });

      // Disputed: no refund, although 19840 would cover the 10000.
      const before = await snapshot(shop);
      expectError(await postTo(shop.testKey, '/v1/checkouts/refund', { id: checkout.id }), 409, 'INVALID_STATE');
      expect(await snapshot(shop)).toEqual(before);

      const evidence = { text: 'Proof of delivery attached.' };
      expectOk(await disputes(shop.testKey, 'submit-evidence', { id: opened.id, evidence }));
      const won = expectOk<Dispute>(await disputes(shop.testKey, 'simulate-resolution', { id: opened.id, outcome: 'won' }));
      expect(won).toMatchObject({ id: opened.id, status: 'WON', evidence, amount: 10_000, chargeId: checkout.id });
      expect(won.resolvedAt).toMatch(ISO);
      expect(Date.parse(won.resolvedAt as string)).toBeGreaterThanOrEqual(Date.parse(won.createdAt));
      expect(await getDispute(shop.testKey, opened.id)).toEqual(won);

      const charge = await getCheckout(shop.testKey, checkout.id);
      expect(charge).toMatchObject({ status: 'PAID', paidAt: checkout.paidAt, fee: 80, netAmount: 9920, refundedAt: null });
      expect(await balanceOf(shop.testKey)).toEqual({ available: 29_840, pending: 0, blocked: 0 });
      expect(await ledgerOf(checkout.id)).toEqual(
        [
          'payment available 9920',
          'dispute_hold available -10000',
          'dispute_hold blocked 10000',
          'dispute_release blocked -10000',
          'dispute_release available 10000',
        ].sort(),
      );
      const wonEvents = await eventsOf(opened.id, 'dispute.won');
      expect(wonEvents).toHaveLength(1);
      expect(wonEvents[0].parsed).toEqual({ object: won });
      expect(await eventsOf(opened.id, 'dispute.lost')).toHaveLength(0);

      // After WON the charge is PAID again: refundable (29840 − 10000 = 19840).
      const refunded = expectOk<Charge>(await postTo(shop.testKey, '/v1/checkouts/refund', { id: checkout.id }));
      expect(refunded.status).toBe('REFUNDED');
      expect(await balanceOf(shop.testKey)).toEqual({ available: 19_840, pending: 0, blocked: 0 });
      // The dispute stays WON.
      expect((await getDispute(shop.testKey, opened.id)).status).toBe('WON');
    });

    it('lost: LOST, charge CHARGED_BACK, blocked removed and available stays reduced, dispute.lost', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 10_000);
      const opened = await openOn(shop.testKey, checkout.id);
      const lost = expectOk<Dispute>(await disputes(shop.testKey, 'simulate-resolution', { id: opened.id, outcome: 'lost' }));
      expect(lost).toEqual({ ...opened, status: 'LOST', resolvedAt: expect.stringMatching(ISO) });
      expect(await getDispute(shop.testKey, opened.id)).toEqual(lost);
      expect((await getCheckout(shop.testKey, checkout.id)).status).toBe('CHARGED_BACK');
      // −80 stays; blocked back to 0.
      expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 0 });
      expect(await ledgerOf(checkout.id)).toEqual(
        ['payment available 9920', 'dispute_hold available -10000', 'dispute_hold blocked 10000', 'chargeback blocked -10000'].sort(),
      );
      const lostEvents = await eventsOf(opened.id, 'dispute.lost');
      expect(lostEvents).toHaveLength(1);
      expect(lostEvents[0].parsed).toEqual({ object: lost });
      expect(await eventsOf(opened.id, 'dispute.won')).toHaveLength(0);

      // A CHARGED_BACK charge can be neither refunded nor disputed again.
      const before = await snapshot(shop);
      expectError(await postTo(shop.testKey, '/v1/checkouts/refund', { id: checkout.id }), 409, 'INVALID_STATE');
      expectError(await disputeCheckout(shop.testKey, { id: checkout.id }), 409, 'INVALID_STATE');
      expect(await snapshot(shop)).toEqual(before);
    });

    it('accept from OPEN: LOST like lost (CHARGED_BACK, blocked removed, dispute.lost)', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 4000);
      const opened = await openOn(shop.testKey, checkout.id);
      expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 4000 });
      const accepted = expectOk<Dispute>(await disputes(shop.testKey, 'accept', { id: opened.id }));
      expect(accepted).toEqual({ ...opened, status: 'LOST', resolvedAt: expect.stringMatching(ISO) });
      expect((await getCheckout(shop.testKey, checkout.id)).status).toBe('CHARGED_BACK');
      expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 0 });
      expect(await ledgerOf(checkout.id)).toEqual(
        ['payment available 3920', 'dispute_hold available -4000', 'dispute_hold blocked 4000', 'chargeback blocked -4000'].sort(),
      );
      const lostEvents = await eventsOf(opened.id, 'dispute.lost');
      expect(lostEvents).toHaveLength(1);
      expect(lostEvents[0].parsed).toEqual({ object: accepted });
    });

    it('accept from UNDER_REVIEW: LOST, keeping the evidence', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 4000);
      const opened = await openOn(shop.testKey, checkout.id);
      const evidence = { text: 'We could not find the parcel.' };
      expectOk(await disputes(shop.testKey, 'submit-evidence', { id: opened.id, evidence }));
      const accepted = expectOk<Dispute>(await disputes(shop.testKey, 'accept', { id: opened.id }));
      expect(accepted).toMatchObject({ status: 'LOST', evidence });
      expect((await getCheckout(shop.testKey, checkout.id)).status).toBe('CHARGED_BACK');
      expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 0 });
      expect((await eventTypes(shop.storeId)).filter((type) => type.startsWith('dispute.'))).toEqual([
        'dispute.created',
        'dispute.lost',
        'dispute.updated',
      ]);
    });

    it('won from OPEN (no evidence) works too', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 10_000);
      const opened = await openOn(shop.testKey, checkout.id);
      const won = expectOk<Dispute>(await disputes(shop.testKey, 'simulate-resolution', { id: opened.id, outcome: 'won' }));
      expect(won).toEqual({ ...opened, status: 'WON', resolvedAt: expect.stringMatching(ISO) });
      expect((await getCheckout(shop.testKey, checkout.id)).status).toBe('PAID');
      expect(await balanceOf(shop.testKey)).toEqual({ available: 9920, pending: 0, blocked: 0 });
    });

    it('any action on a WON or LOST dispute is 409 INVALID_STATE and writes nothing', async () => {
      const shop = await seller();
      const first = await paidCheckout(shop.testKey, 3000);
      const second = await paidCheckout(shop.testKey, 5000);
      const toWin = await openOn(shop.testKey, first.id);
      const toLose = await openOn(shop.testKey, second.id);
      const won = expectOk<Dispute>(await disputes(shop.testKey, 'simulate-resolution', { id: toWin.id, outcome: 'won' }));
      const lost = expectOk<Dispute>(await disputes(shop.testKey, 'simulate-resolution', { id: toLose.id, outcome: 'lost' }));
      // 2920 + 4920 − 3000 − 5000 + 3000 = 2840; blocked 0.
      expect(await balanceOf(shop.testKey)).toEqual({ available: 2840, pending: 0, blocked: 0 });

      const before = await snapshot(shop);
      for (const dispute of [won, lost]) {
        const attempts: Array<[string, Record<string, unknown>]> = [
          ['submit-evidence', { id: dispute.id, evidence: { text: 'late' } }],
          ['accept', { id: dispute.id }],
          ['simulate-resolution', { id: dispute.id, outcome: 'won' }],
          ['simulate-resolution', { id: dispute.id, outcome: 'lost' }],
        ];
        for (const [route, body] of attempts) {
          const refused = await disputes(shop.testKey, route, body);
          expect([dispute.status, route, refused.status, refused.body.error?.code]).toEqual([dispute.status, route, 409, 'INVALID_STATE']);
        }
        expect(await getDispute(shop.testKey, dispute.id)).toEqual(dispute);
      }
      expect(await snapshot(shop)).toEqual(before);
      expect((await getCheckout(shop.testKey, first.id)).status).toBe('PAID');
      expect((await getCheckout(shop.testKey, second.id)).status).toBe('CHARGED_BACK');
    });

    it('simulate-resolution validates outcome, is sandbox only, and accept with a live key sees no test dispute', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 3000);
      const opened = await openOn(shop.testKey, checkout.id);
      const before = await snapshot(shop);
      for (const outcome of ['WON', 'draw', '', undefined]) {
        const body = outcome === undefined ? { id: opened.id } : { id: opened.id, outcome };
        const refused = await disputes(shop.testKey, 'simulate-resolution', body);
        expect([outcome, refused.status]).toEqual([outcome, 400]);
        expectValidationField(refused, 'outcome');
      }
      const shopLive = (await createKey(app, shop.session, { mode: 'live', permissions: ['*'] })).key;
      expectError(await disputes(shopLive, 'simulate-resolution', { id: opened.id, outcome: 'won' }), 403, 'SANDBOX_ONLY');
      expectError(await disputes(shopLive, 'accept', { id: opened.id }), 404, 'NOT_FOUND');
      expectError(await disputes(shopLive, 'submit-evidence', { id: opened.id, evidence: { text: 'x' } }), 404, 'NOT_FOUND');
      expectError(await disputes(shop.testKey, 'simulate-resolution', { id: MISSING_DISPUTE, outcome: 'won' }), 404, 'NOT_FOUND');
      expectError(await disputes(shop.testKey, 'accept', { id: MISSING_DISPUTE }), 404, 'NOT_FOUND');
      expect(await snapshot(shop)).toEqual(before);
      expect(await getDispute(shop.testKey, opened.id)).toEqual(opened);
    });
  });

  describe('list and get', () => {
    it('lists newest first, filters by status and chargeId, and pages with limit/after', async () => {
      const shop = await seller();
      const c1 = await paidCheckout(shop.testKey, 1000);
      const c2 = await paidCheckout(shop.testKey, 2000);
      const c3 = await paidCheckout(shop.testKey, 3000);
      const d1 = await openOn(shop.testKey, c1.id);
      const d2 = await openOn(shop.testKey, c2.id);
      const d3 = await openOn(shop.testKey, c3.id);
      expectOk(await disputes(shop.testKey, 'submit-evidence', { id: d2.id, evidence: { text: 'shipped' } }));
      expectOk(await disputes(shop.testKey, 'simulate-resolution', { id: d3.id, outcome: 'won' }));

      const ids = async (query: Record<string, string | number> = {}) =>
        expectOk<{ items: Dispute[] }>(await listDisputes(shop.testKey, query)).items.map((item) => item.id);
      expect(await ids()).toEqual([d3.id, d2.id, d1.id]);
      expect(await ids({ status: 'OPEN' })).toEqual([d1.id]);
      expect(await ids({ status: 'UNDER_REVIEW' })).toEqual([d2.id]);
      expect(await ids({ status: 'WON' })).toEqual([d3.id]);
      expect(await ids({ status: 'LOST' })).toEqual([]);
      expect(await ids({ chargeId: c2.id })).toEqual([d2.id]);
      expect(await ids({ chargeId: c2.id, status: 'OPEN' })).toEqual([]);
      expect(await ids({ chargeId: MISSING_CHECKOUT })).toEqual([]);

      const first = expectOk<{ items: Dispute[]; hasMore: boolean; next: string | null }>(await listDisputes(shop.testKey, { limit: 2 }));
      expect(first.items.map((item) => item.id)).toEqual([d3.id, d2.id]);
      expect(first.hasMore).toBe(true);
      expect(typeof first.next).toBe('string');
      const second = expectOk<{ items: Dispute[]; hasMore: boolean; next: string | null }>(
        await listDisputes(shop.testKey, { limit: 2, after: first.next as string }),
      );
      expect(second.items.map((item) => item.id)).toEqual([d1.id]);
      expect(second.hasMore).toBe(false);
      expect(second.next).toBeNull();

      expectValidationField(await listDisputes(shop.testKey, { status: 'CLOSED' }), 'status');
      expectValidationField(await listDisputes(shop.testKey, { limit: 0 }), 'limit');
      expectValidationField(await listDisputes(shop.testKey, { limit: 101 }), 'limit');
      expectValidationField(await listDisputes(shop.testKey, { foo: 'bar' }), 'foo');

      // Tenant and mode isolation: another merchant and the live mode see none of them.
      expect(expectOk<{ items: Dispute[] }>(await listDisputes(rival.testKey, { chargeId: c1.id })).items).toEqual([]);
      const shopLive = (await createKey(app, shop.session, { mode: 'live', permissions: ['*'] })).key;
      expect(expectOk<{ items: Dispute[] }>(await listDisputes(shopLive)).items).toEqual([]);
    });

    it('get answers 404 for an unknown id, another merchant’s dispute and the other mode’s key; 400 without id', async () => {
      const checkout = await paidCheckout(merchant.testKey, 1500);
      const dispute = await openOn(merchant.testKey, checkout.id);
      expect((await getDispute(merchant.testKey, dispute.id)).id).toBe(dispute.id);
      expectError(await getDisputeRaw(merchant.testKey, MISSING_DISPUTE), 404, 'NOT_FOUND');
      expectError(await getDisputeRaw(rival.testKey, dispute.id), 404, 'NOT_FOUND');
      expectError(await getDisputeRaw(liveKey, dispute.id), 404, 'NOT_FOUND');
      expectValidationField(await http().get('/v1/disputes/get').set(bearer(merchant.testKey)), 'id');

      // The rival cannot act on it either.
      const before = await snapshot(merchant);
      expectError(await disputes(rival.testKey, 'submit-evidence', { id: dispute.id, evidence: { text: 'x' } }), 404, 'NOT_FOUND');
      expectError(await disputes(rival.testKey, 'accept', { id: dispute.id }), 404, 'NOT_FOUND');
      expectError(await disputes(rival.testKey, 'simulate-resolution', { id: dispute.id, outcome: 'lost' }), 404, 'NOT_FOUND');
      expect(await snapshot(merchant)).toEqual(before);
      expect(await getDispute(merchant.testKey, dispute.id)).toEqual(dispute);
    });

    it('needs a valid key (401)', async () => {
      expectError(await http().get('/v1/disputes/list'), 401, 'UNAUTHENTICATED');
      expectError(await http().get('/v1/disputes/list').set(bearer(merchant.session)), 401, 'UNAUTHENTICATED');
    });
  });

  describe('permissions (API.md §2.4)', () => {
    it('disputes:read lists and gets but cannot act; disputes:write acts but cannot list or get', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 2000);
      const dispute = await openOn(shop.testKey, checkout.id);
      const readKey = (await createKey(app, shop.session, { permissions: ['disputes:read'] })).key;
      const writeKey = (await createKey(app, shop.session, { permissions: ['disputes:write'] })).key;

      expect(expectOk<{ items: Dispute[] }>(await listDisputes(readKey)).items.map((item) => item.id)).toEqual([dispute.id]);
      expect(await getDispute(readKey, dispute.id)).toEqual(dispute);
      const before = await snapshot(shop);
      expectError(await disputes(readKey, 'submit-evidence', { id: dispute.id, evidence: { text: 'x' } }), 403, 'FORBIDDEN');
      expectError(await disputes(readKey, 'accept', { id: dispute.id }), 403, 'FORBIDDEN');
      expectError(await disputes(readKey, 'simulate-resolution', { id: dispute.id, outcome: 'won' }), 403, 'FORBIDDEN');
      expect(await snapshot(shop)).toEqual(before);

      expectError(await listDisputes(writeKey), 403, 'FORBIDDEN');
      expectError(await getDisputeRaw(writeKey, dispute.id), 403, 'FORBIDDEN');
      const reviewed = expectOk<Dispute>(await disputes(writeKey, 'submit-evidence', { id: dispute.id, evidence: { text: 'signed' } }));
      expect(reviewed.status).toBe('UNDER_REVIEW');
      expect(expectOk<Dispute>(await disputes(writeKey, 'simulate-resolution', { id: dispute.id, outcome: 'won' })).status).toBe('WON');
    });

    it('simulate-dispute needs the charge family’s write permission, not disputes:*', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 2000);
      const pix = await paidTransparent(shop.testKey, 2000);
      const disputesOnly = (await createKey(app, shop.session, { permissions: ['disputes:read', 'disputes:write'] })).key;
      const checkoutsRead = (await createKey(app, shop.session, { permissions: ['checkouts:read'] })).key;
      const checkoutsWrite = (await createKey(app, shop.session, { permissions: ['checkouts:write'] })).key;
      const transparentsWrite = (await createKey(app, shop.session, { permissions: ['transparents:write'] })).key;

      const before = await snapshot(shop);
      expectError(await disputeCheckout(disputesOnly, { id: checkout.id }), 403, 'FORBIDDEN');
      expectError(await disputeCheckout(checkoutsRead, { id: checkout.id }), 403, 'FORBIDDEN');
      expectError(await disputeCheckout(transparentsWrite, { id: checkout.id }), 403, 'FORBIDDEN');
      expectError(await disputeTransparent(disputesOnly, { id: pix.id }), 403, 'FORBIDDEN');
      expectError(await disputeTransparent(checkoutsWrite, { id: pix.id }), 403, 'FORBIDDEN');
      expect(await snapshot(shop)).toEqual(before);

      expect(expectOk<Charge>(await disputeCheckout(checkoutsWrite, { id: checkout.id })).status).toBe('UNDER_DISPUTE');
      expect(expectOk<Charge>(await disputeTransparent(transparentsWrite, { id: pix.id })).status).toBe('UNDER_DISPUTE');
      // 2 × (1920 − 2000) = −160; blocked 4000.
      expect(await balanceOf(shop.testKey)).toEqual({ available: -160, pending: 0, blocked: 4000 });
    });
  });

  describe('concurrency', () => {
    it('5 parallel simulate-dispute on one PAID checkout: exactly one 200, the rest 409; one dispute, one hold pair', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 10_000);
      const responses = await Promise.all(Array.from({ length: 5 }, () => disputeCheckout(shop.testKey, { id: checkout.id })));
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409]);
      for (const response of responses.filter((r) => r.status === 409)) expectError(response, 409, 'INVALID_STATE');

      const rows = await disputeRowsOf(checkout.id);
      expect(rows).toHaveLength(1);
      expect(await ledgerOf(checkout.id)).toEqual(['dispute_hold available -10000', 'dispute_hold blocked 10000', 'payment available 9920']);
      expect(await eventsOf(rows[0].id, 'dispute.created')).toHaveLength(1);
      expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 10_000 });
      expect((await getCheckout(shop.testKey, checkout.id)).status).toBe('UNDER_DISPUTE');
    });

    it('5 parallel simulate-resolution (won) on one dispute: exactly one 200; one release pair, one dispute.won', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 10_000);
      const opened = await openOn(shop.testKey, checkout.id);
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => disputes(shop.testKey, 'simulate-resolution', { id: opened.id, outcome: 'won' })),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409]);
      for (const response of responses.filter((r) => r.status === 409)) expectError(response, 409, 'INVALID_STATE');
      expect(await ledgerOf(checkout.id)).toEqual(
        [
          'payment available 9920',
          'dispute_hold available -10000',
          'dispute_hold blocked 10000',
          'dispute_release blocked -10000',
          'dispute_release available 10000',
        ].sort(),
      );
      expect(await eventsOf(opened.id, 'dispute.won')).toHaveLength(1);
      expect(await balanceOf(shop.testKey)).toEqual({ available: 9920, pending: 0, blocked: 0 });
      expect((await getDispute(shop.testKey, opened.id)).status).toBe('WON');
    });

    it('won, lost and accept racing on one dispute: exactly one wins and the money moves once', async () => {
      const shop = await seller();
      const checkout = await paidCheckout(shop.testKey, 10_000);
      const opened = await openOn(shop.testKey, checkout.id);
      const responses = await Promise.all([
        disputes(shop.testKey, 'simulate-resolution', { id: opened.id, outcome: 'won' }),
        disputes(shop.testKey, 'simulate-resolution', { id: opened.id, outcome: 'lost' }),
        disputes(shop.testKey, 'accept', { id: opened.id }),
        disputes(shop.testKey, 'simulate-resolution', { id: opened.id, outcome: 'won' }),
        disputes(shop.testKey, 'accept', { id: opened.id }),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409]);
      const final = await getDispute(shop.testKey, opened.id);
      const winner = responses.find((response) => response.status === 200)!.body.data as Dispute;
      expect(final).toEqual(winner);
      const events = (await eventTypes(shop.storeId)).filter((type) => type === 'dispute.won' || type === 'dispute.lost');
      expect(events).toHaveLength(1);
      if (final.status === 'WON') {
        expect(events).toEqual(['dispute.won']);
        expect(await balanceOf(shop.testKey)).toEqual({ available: 9920, pending: 0, blocked: 0 });
        expect((await getCheckout(shop.testKey, checkout.id)).status).toBe('PAID');
      } else {
        expect(final.status).toBe('LOST');
        expect(events).toEqual(['dispute.lost']);
        expect(await balanceOf(shop.testKey)).toEqual({ available: -80, pending: 0, blocked: 0 });
        expect((await getCheckout(shop.testKey, checkout.id)).status).toBe('CHARGED_BACK');
      }
    });
  });

  describe('reconciliation', () => {
    it('every balances row equals the sum of its ledger per bucket', async () => {
      const ledger = app.app.get(LedgerRepository);
      const rows = await db().selectFrom('balances').selectAll().execute();
      // Every seller above has a test and a live row; several went negative or held money in blocked.
      expect(rows.length).toBeGreaterThanOrEqual(40);
      expect(rows.some((row) => Number(row.available) < 0)).toBe(true);
      expect(rows.some((row) => Number(row.blocked) > 0)).toBe(true);
      for (const row of rows) {
        const sums = await ledger.sumEntries({ storeId: row.store_id, mode: row.mode });
        expect({ store: row.store_id, mode: row.mode, available: Number(row.available), pending: Number(row.pending), blocked: Number(row.blocked) }).toEqual({
          store: row.store_id,
          mode: row.mode,
          ...sums,
        });
      }
    });
  });
});
