import type { Scope } from '../src/common/auth/auth-context';
import { DatabaseService } from '../src/database/database.service';
import { LedgerRepository } from '../src/modules/ledger/ledger.repository';
import { LedgerPosting, LedgerService } from '../src/modules/ledger/ledger.service';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const STORE_ID = /^store_[0-9A-HJKMNP-TV-Z]{26}$/;
const TXN_ID = /^txn_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('Stores and their ledger (API.md §6)', () => {
  let app: TestApp;
  let ledger: LedgerService;
  let ledgerRepository: LedgerRepository;
  let database: DatabaseService;

  beforeAll(async () => {
    app = await startTestApp();
    ledger = app.app.get(LedgerService);
    ledgerRepository = app.app.get(LedgerRepository);
    database = app.app.get(DatabaseService);
  });
  afterAll(() => app.close());

  const post = (scope: Scope, postings: LedgerPosting[]) =>
    database.transaction((trx) => ledger.post(scope, postings, trx));
  const testScope = (merchant: RegisteredMerchant): Scope => ({ storeId: merchant.storeId, mode: 'test' });
  const liveScope = (merchant: RegisteredMerchant): Scope => ({ storeId: merchant.storeId, mode: 'live' });

  const storeOf = async (key: string) => {
    const response = await app.http().get('/v1/stores/list').set(bearer(key)).expect(200);
    expect(response.body.data.items).toHaveLength(1);
    return response.body.data.items[0];
  };
  const balanceOf = async (key: string) => (await storeOf(key)).balance;
  const transactions = async (key: string, query: Record<string, string | number> = {}) =>
    (await app.http().get('/v1/stores/transactions').query(query).set(bearer(key)).expect(200)).body.data;
  /** Every entry, following the cursors. */
  const allTransactions = async (key: string) => {
    const items: Array<{ id: string; amount: number }> = [];
    let after: string | null = null;
    for (let guard = 0; guard < 50; guard += 1) {
      const page = await transactions(key, after === null ? { limit: 100 } : { limit: 100, after });
      items.push(...page.items);
      if (!page.hasMore) return items;
      after = page.next;
    }
    throw new Error('too many pages');
  };

  describe('GET /v1/stores/list', () => {
    it('returns the default store with a zero sandbox balance', async () => {
      const response = await app.http().get('/v1/stores/list').set(bearer(app.defaultKey)).expect(200);
      expect(response.body).toEqual({
        data: {
          items: [
            {
              id: expect.stringMatching(STORE_ID),
              name: 'Default store',
              devMode: true,
              balance: { available: 0, pending: 0, blocked: 0 },
              createdAt: expect.stringMatching(ISO),
            },
          ],
          hasMore: false,
          next: null,
        },
        success: true,
        error: null,
      });
    });

    it("returns a registered merchant's own store", async () => {
      const merchant = await registerMerchant(app, 'Padaria Central');
      const before = Date.now();
      const store = await storeOf(merchant.testKey);
      expect(store).toEqual({
        id: merchant.storeId,
        name: "Padaria Central's store",
        devMode: true,
        balance: { available: 0, pending: 0, blocked: 0 },
        createdAt: expect.stringMatching(ISO),
      });
      expect(new Date(store.createdAt).getTime()).toBeLessThanOrEqual(before);
      expect(new Date(store.createdAt).getTime()).toBeGreaterThan(before - 60_000);
    });

    it('answers any valid key, also a restricted one', async () => {
      const merchant = await registerMerchant(app);
      const restricted = await createKey(app, merchant.session, { permissions: ['customers:read'] });
      const writeOnly = await createKey(app, merchant.session, { permissions: ['payouts:write'] });
      expect((await storeOf(restricted.key)).id).toBe(merchant.storeId);
      expect((await storeOf(writeOnly.key)).id).toBe(merchant.storeId);
    });

    it.each([
      ['no Authorization', undefined],
      ['an unknown key', 'sk_test_doesnotexist0000000000000000'],
      ['a malformed header', 'Basic abc'],
    ])('answers 401 UNAUTHENTICATED with %s', async (_label, header) => {
      const request = app.http().get('/v1/stores/list');
      if (header !== undefined) request.set('Authorization', header.startsWith('Basic') ? header : `Bearer ${header}`);
      const response = await request.expect(401);
      expect(response.body).toEqual({
        data: null,
        success: false,
        error: { code: 'UNAUTHENTICATED', message: expect.any(String) },
      });
    });

    it('does not accept a merchant session (API routes need a key)', async () => {
      const merchant = await registerMerchant(app);
      const response = await app.http().get('/v1/stores/list').set(bearer(merchant.session)).expect(401);
      expect(response.body.error.code).toBe('UNAUTHENTICATED');
    });

    it('answers a revoked key with 401', async () => {
      const merchant = await registerMerchant(app);
      const key = await createKey(app, merchant.session, { permissions: ['*'] });
      await storeOf(key.key);
      await app.http().post('/v1/api-keys/revoke').set(bearer(merchant.session)).send({ id: key.id }).expect(200);
      const response = await app.http().get('/v1/stores/list').set(bearer(key.key)).expect(401);
      expect(response.body.error.code).toBe('UNAUTHENTICATED');
    });

    it('shows a live key devMode false and the live balance', async () => {
      const merchant = await registerMerchant(app);
      const live = await createKey(app, merchant.session, { mode: 'live', permissions: ['*'] });
      expect(live.key.startsWith('sk_live_')).toBe(true);
      await post(testScope(merchant), [{ type: 'charge.paid', bucket: 'available', amount: 5000, sourceId: 'bill_t' }]);
      await post(liveScope(merchant), [
        { type: 'charge.paid', bucket: 'available', amount: 1234, sourceId: 'bill_l' },
        { type: 'charge.pending', bucket: 'pending', amount: 777, sourceId: 'bole_l' },
      ]);

      const liveStore = await storeOf(live.key);
      expect(liveStore).toEqual({
        id: merchant.storeId,
        name: expect.any(String),
        devMode: false,
        balance: { available: 1234, pending: 777, blocked: 0 },
        createdAt: expect.stringMatching(ISO),
      });
      const testStore = await storeOf(merchant.testKey);
      expect(testStore.devMode).toBe(true);
      expect(testStore.balance).toEqual({ available: 5000, pending: 0, blocked: 0 });
      expect(testStore.createdAt).toBe(liveStore.createdAt);
    });
  });

  describe('GET /v1/stores/transactions', () => {
    it('is empty on a fresh store', async () => {
      const merchant = await registerMerchant(app);
      expect(await transactions(merchant.testKey)).toEqual({ items: [], hasMore: false, next: null });
    });

    describe('with movements posted through the LedgerService', () => {
      let merchant: RegisteredMerchant;
      // Posted oldest first; the list answers newest first.
      const expectedNewestFirst = [
        { type: 'payout.created', amount: -1000, bucket: 'available', sourceId: 'pout_1' },
        { type: 'dispute.opened', amount: 4000, bucket: 'blocked', sourceId: 'disp_1' },
        { type: 'dispute.opened', amount: -4000, bucket: 'available', sourceId: 'disp_1' },
        { type: 'adjustment', amount: 2500, bucket: 'pending', sourceId: null },
        { type: 'charge.paid', amount: 9590, bucket: 'available', sourceId: 'bill_1' },
      ];

      beforeAll(async () => {
        merchant = await registerMerchant(app);
        const scope = testScope(merchant);
        await post(scope, [{ type: 'charge.paid', bucket: 'available', amount: 9590, sourceId: 'bill_1' }]);
        await post(scope, [{ type: 'adjustment', bucket: 'pending', amount: 2500, sourceId: null }]);
        await post(scope, [
          { type: 'dispute.opened', bucket: 'available', amount: -4000, sourceId: 'disp_1' },
          { type: 'dispute.opened', bucket: 'blocked', amount: 4000, sourceId: 'disp_1' },
        ]);
        await post(scope, [
          { type: 'payout.created', bucket: 'available', amount: -1000, sourceId: 'pout_1', requireFunds: true },
        ]);
      });

      it('lists every entry newest first with {id, type, amount, bucket, sourceId, createdAt}', async () => {
        const page = await transactions(merchant.testKey);
        expect(page.hasMore).toBe(false);
        expect(page.next).toBeNull();
        expect(page.items).toEqual(
          expectedNewestFirst.map((entry) => ({ id: expect.stringMatching(TXN_ID), createdAt: expect.stringMatching(ISO), ...entry })),
        );
        for (const item of page.items) expect(Object.keys(item).sort()).toEqual(['amount', 'bucket', 'createdAt', 'id', 'sourceId', 'type']);
        expect(new Set(page.items.map((item: { id: string }) => item.id)).size).toBe(5);
        for (let i = 1; i < page.items.length; i += 1) {
          expect(page.items[i - 1].id > page.items[i].id).toBe(true);
          expect(page.items[i - 1].createdAt >= page.items[i].createdAt).toBe(true);
        }
      });

      it('pages with limit and after', async () => {
        const first = await transactions(merchant.testKey, { limit: 2 });
        expect(first.items.map((item: { amount: number }) => item.amount)).toEqual([-1000, 4000]);
        expect(first.hasMore).toBe(true);
        expect(typeof first.next).toBe('string');

        const second = await transactions(merchant.testKey, { limit: 2, after: first.next });
        expect(second.items.map((item: { amount: number }) => item.amount)).toEqual([-4000, 2500]);
        expect(second.hasMore).toBe(true);

        const third = await transactions(merchant.testKey, { limit: 2, after: second.next });
        expect(third.items.map((item: { amount: number }) => item.amount)).toEqual([9590]);
        expect(third).toMatchObject({ hasMore: false, next: null });

        const full = await transactions(merchant.testKey);
        expect([...first.items, ...second.items, ...third.items]).toEqual(full.items);
      });

      it('has no more when limit equals the number of entries, and more when one short', async () => {
        expect(await transactions(merchant.testKey, { limit: 5 })).toMatchObject({ hasMore: false, next: null });
        const four = await transactions(merchant.testKey, { limit: 4 });
        expect(four.items).toHaveLength(4);
        expect(four.hasMore).toBe(true);
        const rest = await transactions(merchant.testKey, { limit: 4, after: four.next });
        expect(rest.items.map((item: { type: string }) => item.type)).toEqual(['charge.paid']);
      });

      it('keeps the store balance equal to the sum of the ledger per bucket', async () => {
        // available 9590 − 4000 − 1000, pending 2500, blocked 4000
        const expected = { available: 4590, pending: 2500, blocked: 4000 };
        expect(await balanceOf(merchant.testKey)).toEqual(expected);
        expect(await ledgerRepository.sumEntries(testScope(merchant))).toEqual(expected);
        const sums = { available: 0, pending: 0, blocked: 0 };
        for (const item of (await transactions(merchant.testKey)).items) {
          sums[item.bucket as keyof typeof sums] += item.amount;
        }
        expect(sums).toEqual(expected);
      });

      it.each([
        ['limit=0', { limit: '0' }],
        ['limit=101', { limit: '101' }],
        ['limit=abc', { limit: 'abc' }],
        ['limit=1.5', { limit: '1.5' }],
        ['a garbage cursor', { after: 'garbage!' }],
        ['a well-formed base64 that is no cursor', { after: Buffer.from('hello').toString('base64url') }],
        ['an unknown parameter', { sort: 'asc' }],
      ])('answers 400 VALIDATION_ERROR for %s', async (_label, query) => {
        const response = await app.http().get('/v1/stores/transactions').query(query).set(bearer(merchant.testKey)).expect(400);
        expect(response.body).toMatchObject({ data: null, success: false, error: { code: 'VALIDATION_ERROR' } });
      });

      it('answers a restricted key too, and 401 without a key', async () => {
        const restricted = await createKey(app, merchant.session, { permissions: ['customers:read'] });
        expect((await transactions(restricted.key)).items).toHaveLength(5);
        const response = await app.http().get('/v1/stores/transactions').expect(401);
        expect(response.body.error.code).toBe('UNAUTHENTICATED');
      });
    });

    it('uses a default page of 20', async () => {
      const merchant = await registerMerchant(app);
      const postings: LedgerPosting[] = Array.from({ length: 21 }, (_, i) => ({
        type: 'charge.paid',
        bucket: 'available',
        amount: i + 1,
        sourceId: `bill_${i + 1}`,
      }));
      await post(testScope(merchant), postings);
      const first = await transactions(merchant.testKey);
      expect(first.items).toHaveLength(20);
      expect(first.items[0].amount).toBe(21);
      expect(first.items[19].amount).toBe(2);
      expect(first.hasMore).toBe(true);
      const second = await transactions(merchant.testKey, { after: first.next });
      expect(second).toEqual({ items: [expect.objectContaining({ amount: 1, sourceId: 'bill_1' })], hasMore: false, next: null });
      expect((await balanceOf(merchant.testKey)).available).toBe(231); // 1 + 2 + … + 21
    });
  });

  describe('funds checks', () => {
    it('refuses a debit larger than available with INSUFFICIENT_FUNDS and writes nothing', async () => {
      const merchant = await registerMerchant(app);
      const scope = testScope(merchant);
      await post(scope, [{ type: 'charge.paid', bucket: 'available', amount: 1000, sourceId: 'bill_a' }]);
      const entriesBefore = await allTransactions(merchant.testKey);

      await expect(
        post(scope, [
          // applied first, then rolled back with the failing debit
          { type: 'charge.pending', bucket: 'pending', amount: 300, sourceId: 'bole_a' },
          { type: 'refund', bucket: 'available', amount: -1001, sourceId: 'bill_a', requireFunds: true },
        ]),
      ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });

      expect(await balanceOf(merchant.testKey)).toEqual({ available: 1000, pending: 0, blocked: 0 });
      expect(await ledgerRepository.sumEntries(scope)).toEqual({ available: 1000, pending: 0, blocked: 0 });
      expect(await allTransactions(merchant.testKey)).toEqual(entriesBefore);
      expect(entriesBefore).toHaveLength(1);
    });

    it('allows a debit of exactly the available balance, then refuses one more centavo', async () => {
      const merchant = await registerMerchant(app);
      const scope = testScope(merchant);
      await post(scope, [{ type: 'charge.paid', bucket: 'available', amount: 700, sourceId: 'bill_b' }]);
      await post(scope, [{ type: 'refund', bucket: 'available', amount: -700, sourceId: 'bill_b', requireFunds: true }]);
      expect((await balanceOf(merchant.testKey)).available).toBe(0);
      await expect(
        post(scope, [{ type: 'payout.created', bucket: 'available', amount: -1, sourceId: 'pout_b', requireFunds: true }]),
      ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
      expect(await balanceOf(merchant.testKey)).toEqual({ available: 0, pending: 0, blocked: 0 });
      expect(await allTransactions(merchant.testKey)).toHaveLength(2);
    });

    it('lets a debit without requireFunds take available below zero (disputes, API.md §11)', async () => {
      const merchant = await registerMerchant(app);
      const scope = testScope(merchant);
      await post(scope, [{ type: 'charge.paid', bucket: 'available', amount: 500, sourceId: 'bill_c' }]);
      await post(scope, [
        { type: 'dispute.opened', bucket: 'available', amount: -800, sourceId: 'disp_c' },
        { type: 'dispute.opened', bucket: 'blocked', amount: 800, sourceId: 'disp_c' },
      ]);
      expect(await balanceOf(merchant.testKey)).toEqual({ available: -300, pending: 0, blocked: 800 });
      expect(await ledgerRepository.sumEntries(scope)).toEqual({ available: -300, pending: 0, blocked: 800 });
    });

    it('never overdraws under 10 concurrent debits: exactly 3 of 300 fit in 1000', async () => {
      const merchant = await registerMerchant(app);
      const scope = testScope(merchant);
      await post(scope, [{ type: 'charge.paid', bucket: 'available', amount: 1000, sourceId: 'bill_d' }]);

      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          post(scope, [{ type: 'payout.created', bucket: 'available', amount: -300, sourceId: `pout_${i}`, requireFunds: true }]),
        ),
      );

      const fulfilled = results.filter((result) => result.status === 'fulfilled');
      const rejected = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      expect(fulfilled).toHaveLength(3);
      expect(rejected).toHaveLength(7);
      for (const failure of rejected) expect(failure.reason).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });

      expect(await balanceOf(merchant.testKey)).toEqual({ available: 100, pending: 0, blocked: 0 });
      expect(await ledgerRepository.sumEntries(scope)).toEqual({ available: 100, pending: 0, blocked: 0 });
      const entries = await allTransactions(merchant.testKey);
      expect(entries.map((entry) => entry.amount).sort((a, b) => a - b)).toEqual([-300, -300, -300, 1000]);
    });
  });

  describe('isolation', () => {
    it("shows merchant B only B's store and none of A's transactions", async () => {
      const merchantA = await registerMerchant(app, 'Loja A');
      const merchantB = await registerMerchant(app, 'Loja B');
      await post(testScope(merchantA), [
        { type: 'charge.paid', bucket: 'available', amount: 4200, sourceId: 'bill_a1' },
        { type: 'charge.paid', bucket: 'available', amount: 800, sourceId: 'bill_a2' },
      ]);

      const storeB = await storeOf(merchantB.testKey);
      expect(storeB).toMatchObject({ id: merchantB.storeId, name: "Loja B's store", balance: { available: 0, pending: 0, blocked: 0 } });
      expect(storeB.id).not.toBe(merchantA.storeId);
      expect(await transactions(merchantB.testKey)).toEqual({ items: [], hasMore: false, next: null });

      // A's cursor in B's hands pages through B's (empty) ledger, never A's.
      const pageA = await transactions(merchantA.testKey, { limit: 1 });
      expect(pageA.hasMore).toBe(true);
      expect(await transactions(merchantB.testKey, { after: pageA.next })).toEqual({ items: [], hasMore: false, next: null });

      const storeA = await storeOf(merchantA.testKey);
      expect(storeA).toMatchObject({ id: merchantA.storeId, balance: { available: 5000, pending: 0, blocked: 0 } });
      // the default merchant is a tenant too
      expect((await storeOf(app.defaultKey)).id).not.toBe(merchantA.storeId);
    });

    it("keeps test-mode entries out of the live key's transactions and balance, and the reverse", async () => {
      const merchant = await registerMerchant(app);
      const live = await createKey(app, merchant.session, { mode: 'live', permissions: ['customers:read'] });
      await post(testScope(merchant), [
        { type: 'charge.paid', bucket: 'available', amount: 3000, sourceId: 'bill_test' },
        { type: 'charge.pending', bucket: 'pending', amount: 400, sourceId: 'bole_test' },
      ]);

      expect(await transactions(live.key)).toEqual({ items: [], hasMore: false, next: null });
      expect(await balanceOf(live.key)).toEqual({ available: 0, pending: 0, blocked: 0 });
      expect(await ledgerRepository.sumEntries(liveScope(merchant))).toEqual({ available: 0, pending: 0, blocked: 0 });

      await post(liveScope(merchant), [{ type: 'charge.paid', bucket: 'available', amount: 1500, sourceId: 'bill_live' }]);
      const liveEntries = await transactions(live.key);
      expect(liveEntries.items).toEqual([expect.objectContaining({ amount: 1500, sourceId: 'bill_live', bucket: 'available' })]);
      expect(await balanceOf(live.key)).toEqual({ available: 1500, pending: 0, blocked: 0 });

      const testEntries = (await transactions(merchant.testKey)).items as Array<{ sourceId: string }>;
      expect(testEntries.map((entry) => entry.sourceId)).toEqual(['bole_test', 'bill_test']);
      expect(await balanceOf(merchant.testKey)).toEqual({ available: 3000, pending: 400, blocked: 0 });
    });
  });
});
