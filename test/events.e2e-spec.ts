import type { Response } from 'supertest';
import { expectOk, expectValidationField } from './support/assertions';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Events — API.md §13 (`GET /v1/events/list|get`, `webhooks:read`), with §1.2 (lists), §2 (modes) and §2.4
 * (permissions). Events come from real actions (checkouts created, paid, refunded) and must be written in the same
 * transaction as the change: a refused action leaves none.
 */
jest.setTimeout(60_000);

const EVENT_ID = /^evt_[0-9A-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_EVENT = 'evt_01JD2Z3M4N5P6Q7R8S9T0V1W2X';

interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  devMode: boolean;
  data: { object: Record<string, unknown> };
}
interface Page {
  items: EventBody[];
  hasMore: boolean;
  next: string | null;
}

function expectError(response: Response, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expect(response.body.success).toBe(false);
  expect(response.body.data).toBeNull();
}

describe('Events — /v1/events (API.md §13)', () => {
  let app: TestApp;
  let counter = 0;

  const http = () => app.http();
  const post = async (key: string, route: string, body: object, status = 200) => {
    const response = await http().post(route).set(bearer(key)).send(body);
    expectOk(response, status);
    return response.body.data;
  };
  const list = (key: string, query: Record<string, string | number> = {}) => http().get('/v1/events/list').query(query).set(bearer(key));
  const getEvent = (key: string, id: string) => http().get('/v1/events/get').query({ id }).set(bearer(key));
  const allEvents = async (key: string, query: Record<string, string> = {}): Promise<EventBody[]> => {
    const response = await list(key, { limit: 100, ...query });
    expectOk(response);
    return response.body.data.items;
  };
  const createProduct = (key: string, price = 1000): Promise<{ id: string }> => {
    counter += 1;
    return post(key, '/v1/products/create', { externalId: `sku-ev-${Date.now()}-${counter}`, name: 'Produto', price }, 201);
  };
  const createCheckout = async (key: string, price = 1000): Promise<Record<string, unknown> & { id: string }> => {
    const product = await createProduct(key, price);
    return post(key, '/v1/checkouts/create', { items: [{ productId: product.id, quantity: 1 }] }, 201);
  };
  const pay = (key: string, id: string) => post(key, '/v1/checkouts/simulate-payment', { id, method: 'PIX' });
  const getCheckout = async (key: string, id: string) => {
    const response = await http().get('/v1/checkouts/get').query({ id }).set(bearer(key));
    expectOk(response);
    return response.body.data;
  };
  const eventOf = async (key: string, type: string, objectId: string): Promise<EventBody> => {
    const matches = (await allEvents(key, { type })).filter((event) => event.data.object.id === objectId);
    expect(matches).toHaveLength(1);
    return matches[0];
  };

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  describe('list', () => {
    let merchant: RegisteredMerchant;
    /** (type, checkout id) in the order the actions happened. */
    const happened: Array<[string, string]> = [];

    beforeAll(async () => {
      merchant = await registerMerchant(app, 'Loja Eventos');
      const a = await createCheckout(merchant.testKey);
      happened.push(['checkout.created', a.id]);
      const b = await createCheckout(merchant.testKey);
      happened.push(['checkout.created', b.id]);
      await pay(merchant.testKey, a.id);
      happened.push(['checkout.paid', a.id]);
      const c = await createCheckout(merchant.testKey);
      happened.push(['checkout.created', c.id]);
      await pay(merchant.testKey, c.id);
      happened.push(['checkout.paid', c.id]);
    });

    it('lists every event newest first', async () => {
      const response = await list(merchant.testKey);
      expectOk(response);
      const page: Page = response.body.data;
      expect(page).toMatchObject({ hasMore: false, next: null });
      expect(page.items.map((event) => [event.type, event.data.object.id])).toEqual([...happened].reverse());
      const ids = page.items.map((event) => event.id);
      expect(ids).toEqual([...ids].sort().reverse());
      const times = page.items.map((event) => event.createdAt);
      expect(times).toEqual([...times].sort().reverse());
      for (const event of page.items) {
        expect(Object.keys(event).sort()).toEqual(['createdAt', 'data', 'devMode', 'id', 'type']);
        expect(Object.keys(event.data)).toEqual(['object']);
        expect(event.id).toMatch(EVENT_ID);
        expect(event.createdAt).toMatch(ISO);
        expect(event.devMode).toBe(true);
      }
    });

    it('filters by type', async () => {
      const paid = await allEvents(merchant.testKey, { type: 'checkout.paid' });
      expect(paid.map((event) => [event.type, event.data.object.id])).toEqual(
        happened.filter(([type]) => type === 'checkout.paid').reverse(),
      );
      const created = await allEvents(merchant.testKey, { type: 'checkout.created' });
      expect(created).toHaveLength(3);
      expect(created.every((event) => event.type === 'checkout.created')).toBe(true);
      expect(await allEvents(merchant.testKey, { type: 'checkout.refunded' })).toEqual([]);
    });

    it('pages with limit and after, without gaps or repeats', async () => {
      const everything = await allEvents(merchant.testKey);
      const seen: EventBody[] = [];
      const flags: boolean[] = [];
      let after: string | null = null;
      do {
        const response = await list(merchant.testKey, after === null ? { limit: 2 } : { limit: 2, after });
        expectOk(response);
        const page: Page = response.body.data;
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items);
        flags.push(page.hasMore);
        after = page.next;
        expect(after === null).toBe(!page.hasMore);
      } while (after !== null);
      expect(flags).toEqual([true, true, false]);
      expect(seen).toEqual(everything);

      const firstCreated = await list(merchant.testKey, { type: 'checkout.created', limit: 2 });
      expect(firstCreated.body.data.items).toHaveLength(2);
      expect(firstCreated.body.data.hasMore).toBe(true);
      const restCreated = await list(merchant.testKey, { type: 'checkout.created', limit: 2, after: firstCreated.body.data.next });
      expect(restCreated.body.data.items.map((event: EventBody) => event.data.object.id)).toEqual([happened[0][1]]);
      expect(restCreated.body.data.hasMore).toBe(false);
    });

    it('validates the query', async () => {
      expectValidationField(await list(merchant.testKey, { limit: 0 }), 'limit');
      expectValidationField(await list(merchant.testKey, { limit: 101 }), 'limit');
      expectValidationField(await list(merchant.testKey, { limit: 'ten' }), 'limit');
      expectValidationField(await list(merchant.testKey, { after: 'not-a-cursor' }), 'after');
      expectValidationField(await list(merchant.testKey, { colour: 'blue' }), 'colour');
    });
  });

  describe('get', () => {
    it('returns one event exactly as the list shows it; 404 for an unknown id, 400 without one', async () => {
      const merchant = await registerMerchant(app);
      const checkout = await createCheckout(merchant.testKey);
      const listed = await eventOf(merchant.testKey, 'checkout.created', checkout.id);
      const response = await getEvent(merchant.testKey, listed.id);
      expectOk(response);
      expect(response.body.data).toEqual(listed);
      expectError(await getEvent(merchant.testKey, MISSING_EVENT), 404, 'NOT_FOUND');
      expectValidationField(await http().get('/v1/events/get').set(bearer(merchant.testKey)), 'id');
    });
  });

  describe('the object inside', () => {
    it('is the resource as get returned it at that moment (created: PENDING, paid: PAID), and it does not change later', async () => {
      const merchant = await registerMerchant(app);
      const checkout = await createCheckout(merchant.testKey, 2500);
      const pendingView = await getCheckout(merchant.testKey, checkout.id);
      const paidView = await pay(merchant.testKey, checkout.id);

      const created = await eventOf(merchant.testKey, 'checkout.created', checkout.id);
      expect(created.data.object).toEqual(pendingView);
      expect(created.data.object).toEqual(checkout);
      expect(created.data.object).toMatchObject({ status: 'PENDING', paidAt: null, amount: 2500 });

      const paid = await eventOf(merchant.testKey, 'checkout.paid', checkout.id);
      expect(paid.data.object).toEqual(paidView);
      expect(paid.data.object).toMatchObject({ status: 'PAID', method: 'PIX', amount: 2500 });
      expect(paid.data.object.paidAt).toMatch(ISO);
      expect(await getCheckout(merchant.testKey, checkout.id)).toEqual(paidView);
      expect(paid.createdAt >= created.createdAt).toBe(true);
    });
  });

  describe('same transaction as the change', () => {
    it('a refund refused with INSUFFICIENT_FUNDS records no checkout.refunded; an accepted one records exactly one', async () => {
      const merchant = await registerMerchant(app, 'Loja Sem Saldo');
      const target = await createCheckout(merchant.testKey, 1000);
      const paidView = await pay(merchant.testKey, target.id); // net 920 < 1000
      const before = await allEvents(merchant.testKey);

      const refused = await http().post('/v1/checkouts/refund').set(bearer(merchant.testKey)).send({ id: target.id });
      expectError(refused, 409, 'INSUFFICIENT_FUNDS');
      expect(await allEvents(merchant.testKey, { type: 'checkout.refunded' })).toEqual([]);
      expect(await allEvents(merchant.testKey)).toEqual(before);
      expect(await getCheckout(merchant.testKey, target.id)).toEqual(paidView);

      const other = await createCheckout(merchant.testKey, 1000);
      await pay(merchant.testKey, other.id); // available 1840
      const refunded = await post(merchant.testKey, '/v1/checkouts/refund', { id: target.id });
      expect(refunded.status).toBe('REFUNDED');
      const events = await allEvents(merchant.testKey, { type: 'checkout.refunded' });
      expect(events).toHaveLength(1);
      expect(events[0].data.object).toEqual(refunded);

      // Refunding again returns it unchanged and records nothing more.
      await post(merchant.testKey, '/v1/checkouts/refund', { id: target.id });
      expect(await allEvents(merchant.testKey, { type: 'checkout.refunded' })).toHaveLength(1);
    });

    it('a refused transition (cancel a PAID checkout) records no event', async () => {
      const merchant = await registerMerchant(app);
      const checkout = await createCheckout(merchant.testKey);
      await pay(merchant.testKey, checkout.id);
      const before = await allEvents(merchant.testKey);
      expectError(await http().post('/v1/checkouts/cancel').set(bearer(merchant.testKey)).send({ id: checkout.id }), 409, 'INVALID_STATE');
      expect(await allEvents(merchant.testKey)).toEqual(before);
    });
  });

  describe('isolation and permissions', () => {
    let owner: RegisteredMerchant;
    let ownerLive: string;
    let rival: RegisteredMerchant;
    let testEvent: EventBody;
    let liveEvent: EventBody;

    beforeAll(async () => {
      owner = await registerMerchant(app, 'Loja Dona');
      rival = await registerMerchant(app, 'Loja Rival');
      ownerLive = (await createKey(app, owner.session, { mode: 'live', permissions: ['*'] })).key;
      const sandboxCheckout = await createCheckout(owner.testKey);
      testEvent = await eventOf(owner.testKey, 'checkout.created', sandboxCheckout.id);
      const liveCheckout = await createCheckout(ownerLive);
      liveEvent = await eventOf(ownerLive, 'checkout.created', liveCheckout.id);
    });

    it('live events carry devMode false and are seen only with a live key', async () => {
      expect(testEvent.devMode).toBe(true);
      expect(liveEvent.devMode).toBe(false);
      expect((await allEvents(owner.testKey)).map((event) => event.id)).toEqual([testEvent.id]);
      expect((await allEvents(ownerLive)).map((event) => event.id)).toEqual([liveEvent.id]);
      expectError(await getEvent(owner.testKey, liveEvent.id), 404, 'NOT_FOUND');
      expectError(await getEvent(ownerLive, testEvent.id), 404, 'NOT_FOUND');
      expectOk(await getEvent(ownerLive, liveEvent.id));
    });

    it("another merchant's events answer 404 and are not listed", async () => {
      for (const id of [testEvent.id, liveEvent.id]) expectError(await getEvent(rival.testKey, id), 404, 'NOT_FOUND');
      expect(await allEvents(rival.testKey)).toEqual([]);
    });

    it('needs webhooks:read (403 otherwise); sessions are not accepted', async () => {
      const reader = (await createKey(app, owner.session, { permissions: ['webhooks:read'] })).key;
      const writer = (await createKey(app, owner.session, { permissions: ['webhooks:write'] })).key;
      const checkoutsOnly = (await createKey(app, owner.session, { permissions: ['checkouts:read', 'checkouts:write'] })).key;
      expectOk(await list(reader));
      expectOk(await getEvent(reader, testEvent.id));
      for (const key of [writer, checkoutsOnly]) {
        expectError(await list(key), 403, 'FORBIDDEN');
        expectError(await getEvent(key, testEvent.id), 403, 'FORBIDDEN');
      }
      expectError(await list(owner.session), 401, 'UNAUTHENTICATED');
      expectError(await http().get('/v1/events/list'), 401, 'UNAUTHENTICATED');
    });
  });
});
