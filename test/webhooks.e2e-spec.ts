import { expectOk, expectValidationField } from './support/assertions';
import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'supertest';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { EventsService } from '../src/modules/events/events.service';
import { WebhookWorker } from '../src/modules/webhooks/delivery/webhook-worker';
import { postWebhook } from '../src/modules/webhooks/delivery/webhook-sender';
import { WebhookDeliveriesRepository } from '../src/modules/webhooks/webhook-deliveries.repository';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { createTestDatabase, startTestApp, TestApp, TestDatabase } from './support/test-app';

/**
 * Webhooks and events — API.md §13 (endpoints, Standard Webhooks delivery, retries, 410, outbox), with §1 (envelope,
 * lists), §2.4 (webhooks:read / webhooks:write) and §15 (shutdown drains webhook attempts).
 *
 * Every delivery goes to a real HTTP receiver on 127.0.0.1 that records each request (headers, raw body, arrival
 * time) and answers a programmable sequence of statuses. Signatures are checked with the reference `standardwebhooks`
 * library. The shared app retries after 0.2 s (WEBHOOK_RETRY_SCHEDULE "0.2,0.2,0.2": 1 + 3 attempts). Asynchronous
 * outcomes are awaited by polling with a deadline; "nothing was sent" is asserted on the database (deliveries are
 * written in the event's transaction, so a missing row means nothing will ever be sent).
 */
jest.setTimeout(60_000);

const FAST_RETRIES = { WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ENDPOINT_ID = /^wh_[0-9A-Z]{26}$/;
const DELIVERY_ID = /^whd_[0-9A-Z]{26}$/;
const EVENT_ID = /^evt_[0-9A-Z]{26}$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const MISSING_ENDPOINT = 'wh_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const MISSING_DELIVERY = 'whd_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const ENDPOINT_FIELDS = ['createdAt', 'description', 'devMode', 'disabledReason', 'enabled', 'events', 'id', 'updatedAt', 'url'];
const DELIVERY_FIELDS = ['attempts', 'createdAt', 'endpointId', 'eventId', 'eventType', 'id', 'nextAttemptAt', 'status'];

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  description: string | null;
  devMode: boolean;
  createdAt: string;
  updatedAt: string;
  secret?: string;
}
interface Attempt {
  at: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}
interface Delivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attempts: Attempt[];
  nextAttemptAt: string | null;
  createdAt: string;
}
interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  devMode: boolean;
  data: { object: Record<string, unknown> };
}

// ---------------------------------------------------------------------------------------------------------------
// A real webhook receiver
// ---------------------------------------------------------------------------------------------------------------

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** The parsed JSON body. */
  event: EventBody;
  webhookId: string;
}

/** What the receiver answers: a status, never ('hang'), or a status given later (a held request). */
type Answer = number | 'hang' | Promise<number>;

interface Receiver {
  url: string;
  port: number;
  requests: Received[];
  /** Answers for the next requests, in order; after them the default. */
  answer(...answers: Answer[]): void;
  setDefault(answer: Answer): void;
  /** The next request is held until `release(status)`; `arrived` resolves when it came in. */
  hold(): { arrived: Promise<void>; release: (status: number) => void };
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  const queue: Answer[] = [];
  const arrivals: Array<() => void> = [];
  let fallback: Answer = 200;
  const reply = (res: ServerResponse, status: number) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(status >= 200 && status < 300 ? 'ok' : 'nope');
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event = {} as EventBody;
      try {
        event = JSON.parse(body) as EventBody;
      } catch {
        // recorded as is; assertions on `event` will fail
      }
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        at: Date.now(),
        event,
        webhookId: String(req.headers['webhook-id'] ?? ''),
      });
      arrivals.shift()?.();
      const answer = queue.length > 0 ? queue.shift()! : fallback;
      if (answer === 'hang') return;
      if (typeof answer === 'number') return reply(res, answer);
      void answer.then((status) => reply(res, status));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    answer: (...answers) => queue.push(...answers),
    setDefault: (answer) => {
      fallback = answer;
    },
    hold: () => {
      const status = deferred<number>();
      const arrived = deferred<void>();
      queue.push(status.promise);
      arrivals.push(() => arrived.resolve());
      return { arrived: arrived.promise, release: (code: number) => status.resolve(code) };
    },
    waitFor: async (count, timeoutMs = 15_000) => {
      await until(() => requests.length >= count, `receiver on ${port} to get ${count} requests (has ${requests.length})`, timeoutMs);
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nobody listens on (connection refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls `check` until it is truthy; fails with `what` after the deadline. Not a speed assertion. */
type Maybe<T> = T | null | undefined | false;
async function until<T>(check: () => Maybe<T> | Promise<Maybe<T>>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function verifies(secret: string, request: Received): boolean {
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}

function expectError(response: Response, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expect(response.body.success).toBe(false);
  expect(response.body.data).toBeNull();
}

// ---------------------------------------------------------------------------------------------------------------
// API helpers bound to one app
// ---------------------------------------------------------------------------------------------------------------

function apiOf(target: () => TestApp) {
  const http = () => target().http();
  let counter = 0;
  const api = {
    post: (key: string, route: string, body: unknown) =>
      http()
        .post(route)
        .set(bearer(key))
        .send(body as object),
    get: (key: string, route: string, query: Record<string, string | number> = {}) => http().get(route).query(query).set(bearer(key)),
    createEndpoint: async (key: string, body: Record<string, unknown>): Promise<Endpoint & { secret: string }> => {
      const response = await api.post(key, '/v1/webhooks/create', body);
      expectOk(response, 201);
      return response.body.data;
    },
    getEndpoint: async (key: string, id: string): Promise<Endpoint> => {
      const response = await api.get(key, '/v1/webhooks/get', { id });
      expectOk(response);
      return response.body.data;
    },
    deliveries: async (key: string, endpointId: string, query: Record<string, string | number> = {}): Promise<Delivery[]> => {
      const response = await api.get(key, '/v1/webhooks/deliveries', { id: endpointId, limit: 100, ...query });
      expectOk(response);
      return response.body.data.items;
    },
    /** Polls the deliveries of an endpoint until none is PENDING and there are at least `count`. */
    settledDeliveries: (key: string, endpointId: string, count: number) =>
      until(async () => {
        const items = await api.deliveries(key, endpointId);
        return items.length >= count && items.every((item) => item.status !== 'PENDING') ? items : null;
      }, `${count} settled deliveries of ${endpointId}`),
    createProduct: async (key: string, price = 1000): Promise<string> => {
      counter += 1;
      const response = await api.post(key, '/v1/products/create', { externalId: `sku-${Date.now()}-${counter}`, name: 'Produto', price });
      expectOk(response, 201);
      return response.body.data.id;
    },
    createCheckout: async (key: string, productId: string): Promise<{ id: string; status: string }> => {
      const response = await api.post(key, '/v1/checkouts/create', { items: [{ productId, quantity: 1 }] });
      expectOk(response, 201);
      return response.body.data;
    },
    pay: async (key: string, id: string) => {
      const response = await api.post(key, '/v1/checkouts/simulate-payment', { id });
      expectOk(response);
      return response.body.data;
    },
    event: async (key: string, id: string): Promise<EventBody> => {
      const response = await api.get(key, '/v1/events/get', { id });
      expectOk(response);
      return response.body.data;
    },
    /** The one event of `type` whose object is `objectId`. */
    eventOf: async (key: string, type: string, objectId: string): Promise<EventBody> => {
      const response = await api.get(key, '/v1/events/list', { type, limit: 100 });
      expectOk(response);
      const matches = (response.body.data.items as EventBody[]).filter((event) => event.data.object.id === objectId);
      expect(matches).toHaveLength(1);
      return matches[0];
    },
  };
  return api;
}

// ---------------------------------------------------------------------------------------------------------------

describe('Webhooks — /v1/webhooks (API.md §13)', () => {
  let app: TestApp;
  const receivers: Receiver[] = [];
  const api = apiOf(() => app);
  const db = () => app.database.db;

  const receiver = async () => {
    const created = await startReceiver();
    receivers.push(created);
    return created;
  };
  /** A merchant with a product, ready to produce checkout events. */
  const shop = async (name = 'Loja Webhooks') => {
    const merchant = await registerMerchant(app, name);
    const productId = await api.createProduct(merchant.testKey);
    return { merchant, key: merchant.testKey, productId };
  };
  const deliveryRows = (endpointId: string) =>
    db().selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id', 'asc').execute();

  beforeAll(async () => {
    app = await startTestApp({ env: FAST_RETRIES });
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all(receivers.map((item) => item.close()));
  });

  describe('endpoints', () => {
    it('create returns the whsec_ secret once; get, list and update never show it', async () => {
      const { key } = await shop();
      const r = await receiver();
      const created = await api.createEndpoint(key, { url: `${r.url}/hooks`, events: ['*'], description: 'principal' });
      expect(Object.keys(created).sort()).toEqual([...ENDPOINT_FIELDS, 'secret'].sort());
      expect(created).toMatchObject({
        url: `${r.url}/hooks`,
        events: ['*'],
        enabled: true,
        disabledReason: null,
        description: 'principal',
        devMode: true,
      });
      expect(created.id).toMatch(ENDPOINT_ID);
      expect(created.createdAt).toMatch(ISO);
      expect(created.secret).toMatch(SECRET);
      expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);

      const got = await api.get(key, '/v1/webhooks/get', { id: created.id });
      expectOk(got);
      expect(Object.keys(got.body.data).sort()).toEqual(ENDPOINT_FIELDS);
      const { secret, ...withoutSecret } = created;
      expect(got.body.data).toEqual(withoutSecret);

      const listed = await api.get(key, '/v1/webhooks/list');
      expectOk(listed);
      expect(listed.body.data.items).toEqual([withoutSecret]);

      const updated = await api.post(key, '/v1/webhooks/update', { id: created.id, description: 'outra' });
      expectOk(updated);
      expect(updated.body.data).not.toHaveProperty('secret');

      for (const body of [got.body, listed.body, updated.body]) expect(JSON.stringify(body)).not.toContain(secret.slice(6));
      // The secret is kept (the column aside): a second create gets a different one.
      const other = await api.createEndpoint(key, { url: `${r.url}/other`, events: ['*'] });
      expect(other.secret).not.toBe(secret);
    });

    it('validates the body: events are known types or "*", url is an http(s) URL without credentials', async () => {
      const { key } = await shop();
      const r = await receiver();
      const base = { url: `${r.url}/hooks`, events: ['checkout.paid'] };
      expectValidationField(await api.post(key, '/v1/webhooks/create', { ...base, events: ['checkout.unknown'] }), 'events');
      expectValidationField(await api.post(key, '/v1/webhooks/create', { ...base, events: ['checkout.paid', 'nope'] }), 'events');
      expectValidationField(await api.post(key, '/v1/webhooks/create', { ...base, events: [] }), 'events');
      expectValidationField(await api.post(key, '/v1/webhooks/create', { ...base, events: 'checkout.paid' }), 'events');
      expectValidationField(await api.post(key, '/v1/webhooks/create', { url: base.url }), 'events');
      expectValidationField(await api.post(key, '/v1/webhooks/create', { events: base.events }), 'url');
      expectValidationField(await api.post(key, '/v1/webhooks/create', { ...base, url: 'ftp://127.0.0.1/hooks' }), 'url');
      expectValidationField(await api.post(key, '/v1/webhooks/create', { ...base, url: 'not a url' }), 'url');
      expectValidationField(await api.post(key, '/v1/webhooks/create', { ...base, url: `http://user:pw@127.0.0.1:${r.port}/` }), 'url');
      expectValidationField(await api.post(key, '/v1/webhooks/create', { ...base, enabled: 'yes' }), 'enabled');
      expectValidationField(await api.post(key, '/v1/webhooks/create', { ...base, secret: 'whsec_mine' }), 'secret');
      const none = await api.get(key, '/v1/webhooks/list');
      expectOk(none);
      expect(none.body.data.items).toEqual([]);

      const many = await api.createEndpoint(key, { ...base, events: ['checkout.created', 'checkout.paid', 'coupon.exhausted', 'payout.failed'] });
      expect(many.events).toEqual(['checkout.created', 'checkout.paid', 'coupon.exhausted', 'payout.failed']);
    });

    it('is enabled by default and can be created disabled', async () => {
      const { key } = await shop();
      const r = await receiver();
      expect((await api.createEndpoint(key, { url: r.url, events: ['*'] })).enabled).toBe(true);
      const off = await api.createEndpoint(key, { url: r.url, events: ['*'], enabled: false });
      expect(off.enabled).toBe(false);
      expect((await api.getEndpoint(key, off.id)).enabled).toBe(false);
    });

    it('lists newest first with pagination', async () => {
      const { key } = await shop();
      const r = await receiver();
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) ids.push((await api.createEndpoint(key, { url: `${r.url}/${i}`, events: ['*'] })).id);
      const first = await api.get(key, '/v1/webhooks/list', { limit: 2 });
      expectOk(first);
      expect(first.body.data.items.map((item: Endpoint) => item.id)).toEqual([ids[2], ids[1]]);
      expect(first.body.data.hasMore).toBe(true);
      const second = await api.get(key, '/v1/webhooks/list', { limit: 2, after: first.body.data.next });
      expectOk(second);
      expect(second.body.data.items.map((item: Endpoint) => item.id)).toEqual([ids[0]]);
      expect(second.body.data).toMatchObject({ hasMore: false, next: null });
      expectValidationField(await api.get(key, '/v1/webhooks/list', { limit: 0 }), 'limit');
    });

    it('update changes url, events, enabled and description, and the new url gets the next events', async () => {
      const { key, productId } = await shop();
      const before = await receiver();
      const after = await receiver();
      const endpoint = await api.createEndpoint(key, { url: `${before.url}/a`, events: ['checkout.paid'], description: 'antes' });

      const response = await api.post(key, '/v1/webhooks/update', {
        id: endpoint.id,
        url: `${after.url}/b`,
        events: ['checkout.created'],
        enabled: false,
        description: 'depois',
      });
      expectOk(response);
      expect(response.body.data).toMatchObject({ id: endpoint.id, url: `${after.url}/b`, events: ['checkout.created'], enabled: false, description: 'depois' });
      expect(response.body.data.updatedAt >= endpoint.createdAt).toBe(true);
      expect(await api.getEndpoint(key, endpoint.id)).toEqual(response.body.data);

      // Disabled: the checkout below creates no delivery for it.
      await api.createCheckout(key, productId);
      expect(await deliveryRows(endpoint.id)).toHaveLength(0);

      expectOk(await api.post(key, '/v1/webhooks/update', { id: endpoint.id, enabled: true }));
      const checkout = await api.createCheckout(key, productId);
      const [request] = await after.waitFor(1);
      expect(request.path).toBe('/b');
      expect(request.event).toMatchObject({ type: 'checkout.created', data: { object: { id: checkout.id } } });
      expect(before.requests).toHaveLength(0);

      expectValidationField(await api.post(key, '/v1/webhooks/update', { id: endpoint.id, events: ['nope'] }), 'events');
      expectValidationField(await api.post(key, '/v1/webhooks/update', { id: endpoint.id, url: 'ftp://127.0.0.1/x' }), 'url');
      expectValidationField(await api.post(key, '/v1/webhooks/update', { id: endpoint.id, secret: 'x' }), 'secret');
      expectValidationField(await api.post(key, '/v1/webhooks/update', { url: after.url }), 'id');
      expectError(await api.post(key, '/v1/webhooks/update', { id: MISSING_ENDPOINT, enabled: true }), 404, 'NOT_FOUND');
      expect(await api.getEndpoint(key, endpoint.id)).toMatchObject({ url: `${after.url}/b`, events: ['checkout.created'], enabled: true });
    });

    it('delete: the endpoint answers 404 afterwards and its pending deliveries become FAILED, never sent', async () => {
      const { key, productId } = await shop();
      const r = await receiver();
      const witness = await receiver();
      const endpoint = await api.createEndpoint(key, { url: r.url, events: ['*'] });
      await api.createEndpoint(key, { url: witness.url, events: ['*'] });

      // The first delivery is held in flight, so the second one waits (one in flight per endpoint).
      const held = r.hold();
      const first = await api.createCheckout(key, productId);
      await held.arrived;
      const second = await api.createCheckout(key, productId);
      const secondEvent = await api.eventOf(key, 'checkout.created', second.id);
      const pending = (await deliveryRows(endpoint.id)).find((row) => row.event_id === secondEvent.id)!;
      expect(pending.status).toBe('PENDING');

      const deleted = await api.post(key, '/v1/webhooks/delete', { id: endpoint.id });
      expectOk(deleted);
      expect(deleted.body.data).toEqual({ id: endpoint.id, deleted: true });
      held.release(200);

      const failed = await db().selectFrom('webhook_deliveries').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
      expect(failed).toMatchObject({ status: 'FAILED', next_attempt_at: null });

      // The witness got both events, so the worker went past them; the deleted endpoint got only the held one.
      await witness.waitFor(2);
      expect(r.requests.map((request) => request.event.data.object.id)).toEqual([first.id]);

      expectError(await api.get(key, '/v1/webhooks/get', { id: endpoint.id }), 404, 'NOT_FOUND');
      expect((await api.get(key, '/v1/webhooks/list')).body.data.items.map((item: Endpoint) => item.id)).not.toContain(endpoint.id);
      expectError(await api.post(key, '/v1/webhooks/delete', { id: endpoint.id }), 404, 'NOT_FOUND');
      expectError(await api.post(key, '/v1/webhooks/update', { id: endpoint.id, enabled: true }), 404, 'NOT_FOUND');
      expectError(await api.post(key, '/v1/webhooks/rotate-secret', { id: endpoint.id }), 404, 'NOT_FOUND');
      expectError(await api.post(key, '/v1/webhooks/test', { id: endpoint.id }), 404, 'NOT_FOUND');
      expectError(await api.get(key, '/v1/webhooks/deliveries', { id: endpoint.id }), 404, 'NOT_FOUND');
      expectError(await api.post(key, '/v1/webhooks/resend', { deliveryId: pending.id }), 404, 'NOT_FOUND');

      // No new deliveries for it either.
      const rowsBefore = (await deliveryRows(endpoint.id)).length;
      await api.createCheckout(key, productId);
      await witness.waitFor(3);
      expect(await deliveryRows(endpoint.id)).toHaveLength(rowsBefore);
    });

    it('rotate-secret returns a new secret once; deliveries after it verify with the new secret only', async () => {
      const { key, productId } = await shop();
      const r = await receiver();
      const endpoint = await api.createEndpoint(key, { url: r.url, events: ['checkout.created'] });
      await api.createCheckout(key, productId);
      const [firstRequest] = await r.waitFor(1);
      expect(verifies(endpoint.secret, firstRequest)).toBe(true);

      const rotated = await api.post(key, '/v1/webhooks/rotate-secret', { id: endpoint.id });
      expectOk(rotated);
      expect(rotated.body.data.id).toBe(endpoint.id);
      expect(rotated.body.data.secret).toMatch(SECRET);
      expect(rotated.body.data.secret).not.toBe(endpoint.secret);
      const secret2: string = rotated.body.data.secret;
      expect(await api.getEndpoint(key, endpoint.id)).not.toHaveProperty('secret');

      await api.createCheckout(key, productId);
      const [, secondRequest] = await r.waitFor(2);
      expect(verifies(secret2, secondRequest)).toBe(true);
      expect(verifies(endpoint.secret, secondRequest)).toBe(false);
      expect(verifies(secret2, firstRequest)).toBe(false);

      expectError(await api.post(key, '/v1/webhooks/rotate-secret', { id: MISSING_ENDPOINT }), 404, 'NOT_FOUND');
      expectValidationField(await api.post(key, '/v1/webhooks/rotate-secret', {}), 'id');
    });

    it('live keys: https and a public address only; sandbox keys may use http://127.0.0.1', async () => {
      const { merchant } = await shop();
      const live = (await createKey(app, merchant.session, { mode: 'live', permissions: ['*'] })).key;
      const r = await receiver();
      for (const url of [
        `http://127.0.0.1:${r.port}/hook`,
        'http://93.184.216.34/hook',
        'https://127.0.0.1/hook',
        'https://localhost/hook',
        'https://169.254.169.254/latest/meta-data',
        'https://10.1.2.3/hook',
        'https://192.168.0.10/hook',
        'https://[::1]/hook',
      ]) {
        const response = await api.post(live, '/v1/webhooks/create', { url, events: ['*'] });
        expect({ url, status: response.status }).toEqual({ url, status: 400 });
        expectValidationField(response, 'url');
      }
      expect((await api.get(live, '/v1/webhooks/list')).body.data.items).toEqual([]);

      const created = await api.createEndpoint(live, { url: 'https://93.184.216.34/hook', events: ['checkout.paid'], enabled: false });
      expect(created).toMatchObject({ url: 'https://93.184.216.34/hook', devMode: false });
      // Updating a live endpoint to a private address is refused too, and changes nothing.
      expectValidationField(await api.post(live, '/v1/webhooks/update', { id: created.id, url: 'https://10.0.0.1/hook' }), 'url');
      expect((await api.getEndpoint(live, created.id)).url).toBe('https://93.184.216.34/hook');
      expectOk(await api.post(live, '/v1/webhooks/delete', { id: created.id }));

      const sandbox = await api.createEndpoint(merchant.testKey, { url: `http://127.0.0.1:${r.port}/hook`, events: ['*'] });
      expect(sandbox).toMatchObject({ url: `http://127.0.0.1:${r.port}/hook`, devMode: true });
      expect((await api.createEndpoint(merchant.testKey, { url: 'http://localhost:1234/x', events: ['*'], enabled: false })).devMode).toBe(true);
    });
  });

  describe('delivery', () => {
    it('POSTs the event with Standard Webhooks headers and a signature that standardwebhooks verifies', async () => {
      const { key, productId } = await shop();
      const r = await receiver();
      const endpoint = await api.createEndpoint(key, { url: `${r.url}/hooks/payments?tenant=a`, events: ['*'] });
      const checkout = await api.createCheckout(key, productId);
      const [request] = await r.waitFor(1);

      expect(request.method).toBe('POST');
      expect(request.path).toBe('/hooks/payments?tenant=a');
      expect(request.headers['content-type']).toMatch(/^application\/json/);
      const event = await api.eventOf(key, 'checkout.created', checkout.id);
      expect(event.id).toMatch(EVENT_ID);
      expect(request.headers['webhook-id']).toBe(event.id);
      const timestamp = Number(request.headers['webhook-timestamp']);
      expect(String(request.headers['webhook-timestamp'])).toMatch(/^\d{10}$/);
      expect(Math.abs(timestamp - request.at / 1000)).toBeLessThan(5);
      expect(String(request.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(new Webhook(endpoint.secret).verify(request.body, request.headers as Record<string, string>)).toEqual(JSON.parse(request.body));
      // Someone else's secret does not verify it.
      const other = await api.createEndpoint(key, { url: r.url, events: ['*'], enabled: false });
      expect(verifies(other.secret, request)).toBe(false);

      // The body is the stored event, exactly as GET /v1/events/get answers it.
      expect(Object.keys(request.event).sort()).toEqual(['createdAt', 'data', 'devMode', 'id', 'type']);
      expect(request.event).toEqual(await api.event(key, event.id));
      expect(request.event).toMatchObject({ type: 'checkout.created', devMode: true, data: { object: { id: checkout.id, status: 'PENDING' } } });

      const [delivery] = await api.settledDeliveries(key, endpoint.id, 1);
      expect(Object.keys(delivery).sort()).toEqual(DELIVERY_FIELDS);
      expect(delivery).toMatchObject({ endpointId: endpoint.id, eventId: event.id, eventType: 'checkout.created', status: 'SUCCEEDED', nextAttemptAt: null });
      expect(delivery.id).toMatch(DELIVERY_ID);
      expect(delivery.attempts).toHaveLength(1);
      expect(Object.keys(delivery.attempts[0]).sort()).toEqual(['at', 'durationMs', 'error', 'statusCode']);
      expect(delivery.attempts[0]).toMatchObject({ statusCode: 200, error: null });
      expect(delivery.attempts[0].at).toMatch(ISO);
      expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
    });

    it('retries 500, 500, 200 with the same webhook-id and records the three attempts', async () => {
      const { key, productId } = await shop();
      const r = await receiver();
      r.answer(500, 500);
      const endpoint = await api.createEndpoint(key, { url: r.url, events: ['checkout.created'] });
      const checkout = await api.createCheckout(key, productId);
      const requests = await r.waitFor(3);
      const event = await api.eventOf(key, 'checkout.created', checkout.id);
      expect(requests.map((request) => request.webhookId)).toEqual([event.id, event.id, event.id]);
      expect(new Set(requests.map((request) => request.body)).size).toBe(1);
      for (const request of requests) expect(verifies(endpoint.secret, request)).toBe(true);
      // The retry waits for the schedule (0.2 s, jitter ±10 %): a lower bound, not a speed claim.
      expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(150);
      expect(requests[2].at - requests[1].at).toBeGreaterThanOrEqual(150);

      const [delivery] = await api.settledDeliveries(key, endpoint.id, 1);
      expect(delivery.status).toBe('SUCCEEDED');
      expect(delivery.nextAttemptAt).toBeNull();
      expect(delivery.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 200]);
      expect(delivery.attempts.map((attempt) => attempt.at)).toEqual([...delivery.attempts.map((attempt) => attempt.at)].sort());
      for (const attempt of delivery.attempts) expect(typeof attempt.durationMs).toBe('number');
      expect(r.requests).toHaveLength(3);
    });

    it('a receiver that always fails: FAILED after 1 + schedule-length attempts, nextAttemptAt null', async () => {
      const { key, productId } = await shop();
      const r = await receiver();
      r.setDefault(503);
      const endpoint = await api.createEndpoint(key, { url: r.url, events: ['checkout.created'] });
      await api.createCheckout(key, productId);
      const [delivery] = await api.settledDeliveries(key, endpoint.id, 1);
      expect(delivery.status).toBe('FAILED');
      expect(delivery.nextAttemptAt).toBeNull();
      expect(delivery.attempts.map((attempt) => attempt.statusCode)).toEqual([503, 503, 503, 503]);
      expect(r.requests).toHaveLength(4);
      expect(new Set(r.requests.map((request) => request.webhookId)).size).toBe(1);
      // The endpoint stays enabled: only 410 disables it.
      expect((await api.getEndpoint(key, endpoint.id)).enabled).toBe(true);
    });

    it('connection refused is recorded as an attempt with an error and no status, and retried', async () => {
      const { key, productId } = await shop();
      const port = await closedPort();
      const endpoint = await api.createEndpoint(key, { url: `http://127.0.0.1:${port}/hook`, events: ['checkout.created'] });
      await api.createCheckout(key, productId);
      const [delivery] = await api.settledDeliveries(key, endpoint.id, 1);
      expect(delivery.status).toBe('FAILED');
      expect(delivery.attempts).toHaveLength(4);
      for (const attempt of delivery.attempts) {
        expect(attempt.statusCode).toBeNull();
        expect(attempt.error).toEqual(expect.stringMatching(/ECONNREFUSED|refused/i));
      }
      // The error never carries the secret.
      expect(JSON.stringify(delivery)).not.toContain(endpoint.secret.slice(6));
    });

    it('410 Gone: the delivery FAILS, the endpoint is disabled with a reason, its pending deliveries fail and nothing more is sent', async () => {
      const { key, productId } = await shop();
      const r = await receiver();
      const witness = await receiver();
      const endpoint = await api.createEndpoint(key, { url: r.url, events: ['*'] });
      await api.createEndpoint(key, { url: witness.url, events: ['*'] });

      const held = r.hold();
      const first = await api.createCheckout(key, productId);
      await held.arrived;
      const second = await api.createCheckout(key, productId); // queued behind the held one
      held.release(410);

      const deliveries = await api.settledDeliveries(key, endpoint.id, 2);
      const firstEvent = await api.eventOf(key, 'checkout.created', first.id);
      const secondEvent = await api.eventOf(key, 'checkout.created', second.id);
      const byEvent = new Map(deliveries.map((delivery) => [delivery.eventId, delivery]));
      expect(byEvent.get(firstEvent.id)).toMatchObject({ status: 'FAILED', nextAttemptAt: null });
      expect(byEvent.get(firstEvent.id)!.attempts.map((attempt) => attempt.statusCode)).toEqual([410]);
      expect(byEvent.get(secondEvent.id)).toMatchObject({ status: 'FAILED', nextAttemptAt: null });

      const disabled = await api.getEndpoint(key, endpoint.id);
      expect(disabled.enabled).toBe(false);
      expect(disabled.disabledReason).toEqual(expect.stringContaining('410'));

      // Later events make no delivery to it; the witness proves the worker went on.
      await api.createCheckout(key, productId);
      await witness.waitFor(3);
      expect(await deliveryRows(endpoint.id)).toHaveLength(2);
      expect(r.requests.map((request) => request.webhookId)).toEqual([firstEvent.id]);

      // Re-enabled by the merchant: the reason is cleared and events flow again.
      const enabled = await api.post(key, '/v1/webhooks/update', { id: endpoint.id, enabled: true });
      expectOk(enabled);
      expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null });
      const third = await api.createCheckout(key, productId);
      const [, again] = await r.waitFor(2);
      expect(again.event.data.object.id).toBe(third.id);
    });

    it('subscriptions: each endpoint gets only its types, "*" gets everything, disabled endpoints get nothing', async () => {
      const { key, productId } = await shop();
      const [paidOnly, everything, createdOnly, disabledReceiver] = [await receiver(), await receiver(), await receiver(), await receiver()];
      const a = await api.createEndpoint(key, { url: paidOnly.url, events: ['checkout.paid'] });
      const b = await api.createEndpoint(key, { url: everything.url, events: ['*'] });
      const c = await api.createEndpoint(key, { url: createdOnly.url, events: ['checkout.created', 'checkout.refunded'] });
      const d = await api.createEndpoint(key, { url: disabledReceiver.url, events: ['*'], enabled: false });

      const checkout = await api.createCheckout(key, productId);
      await api.pay(key, checkout.id);

      await everything.waitFor(2);
      await paidOnly.waitFor(1);
      await createdOnly.waitFor(1);
      expect(everything.requests.map((request) => request.event.type)).toEqual(['checkout.created', 'checkout.paid']);
      expect(paidOnly.requests.map((request) => request.event.type)).toEqual(['checkout.paid']);
      expect(createdOnly.requests.map((request) => request.event.type)).toEqual(['checkout.created']);
      // What the database holds is everything that will ever be sent.
      expect((await deliveryRows(a.id)).map((row) => row.event_type)).toEqual(['checkout.paid']);
      expect((await deliveryRows(b.id)).map((row) => row.event_type)).toEqual(['checkout.created', 'checkout.paid']);
      expect((await deliveryRows(c.id)).map((row) => row.event_type)).toEqual(['checkout.created']);
      expect(await deliveryRows(d.id)).toHaveLength(0);
      expect(disabledReceiver.requests).toHaveLength(0);
      for (const request of paidOnly.requests) expect(verifies(a.secret, request)).toBe(true);
    });

    it('delivers per endpoint in event order: 20 checkouts in quick succession arrive in creation order', async () => {
      const { key, productId } = await shop();
      const r = await receiver();
      await api.createEndpoint(key, { url: r.url, events: ['checkout.created'] });
      const created: string[] = [];
      for (let i = 0; i < 20; i += 1) created.push((await api.createCheckout(key, productId)).id);
      const requests = await r.waitFor(20);
      expect(requests.map((request) => request.event.data.object.id)).toEqual(created);

      const listed = await api.get(key, '/v1/events/list', { type: 'checkout.created', limit: 20 });
      expectOk(listed);
      const eventIds = (listed.body.data.items as EventBody[]).map((event) => event.id).reverse(); // oldest first
      expect(requests.map((request) => request.webhookId)).toEqual(eventIds);
      const times = requests.map((request) => request.event.createdAt);
      expect(times).toEqual([...times].sort());
      expect(new Set(requests.map((request) => request.webhookId)).size).toBe(20);
    });

    it('test: sends a webhook.test event to that endpoint only', async () => {
      const { key } = await shop();
      const target = await receiver();
      const bystander = await receiver();
      const endpoint = await api.createEndpoint(key, { url: target.url, events: ['checkout.paid'] });
      const other = await api.createEndpoint(key, { url: bystander.url, events: ['*'] });

      const response = await api.post(key, '/v1/webhooks/test', { id: endpoint.id });
      expectOk(response);
      expect(Object.keys(response.body.data).sort()).toEqual(DELIVERY_FIELDS);
      expect(response.body.data).toMatchObject({ endpointId: endpoint.id, eventType: 'webhook.test' });
      expect(response.body.data.id).toMatch(DELIVERY_ID);

      const [request] = await target.waitFor(1);
      expect(request.event.type).toBe('webhook.test');
      expect(request.webhookId).toBe(response.body.data.eventId);
      expect(verifies(endpoint.secret, request)).toBe(true);
      expect(request.event).toEqual(await api.event(key, response.body.data.eventId));
      const [delivery] = await api.settledDeliveries(key, endpoint.id, 1);
      expect(delivery).toMatchObject({ id: response.body.data.id, status: 'SUCCEEDED' });

      expect(await deliveryRows(other.id)).toHaveLength(0);
      expect(bystander.requests).toHaveLength(0);
      expectError(await api.post(key, '/v1/webhooks/test', { id: MISSING_ENDPOINT }), 404, 'NOT_FOUND');
    });

    it('deliveries: newest first, status filter and pagination', async () => {
      const { key, productId } = await shop();
      const r = await receiver();
      const endpoint = await api.createEndpoint(key, { url: r.url, events: ['checkout.created'] });
      for (let i = 0; i < 3; i += 1) await api.createCheckout(key, productId);
      await api.settledDeliveries(key, endpoint.id, 3);
      r.setDefault(500);
      await api.createCheckout(key, productId);
      const all = await api.settledDeliveries(key, endpoint.id, 4);

      const ids = all.map((delivery) => delivery.id);
      expect(ids).toEqual([...ids].sort().reverse());
      expect(all.map((delivery) => delivery.status)).toEqual(['FAILED', 'SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);

      const succeeded = await api.deliveries(key, endpoint.id, { status: 'SUCCEEDED' });
      expect(succeeded.map((delivery) => delivery.id)).toEqual(ids.slice(1));
      const failed = await api.deliveries(key, endpoint.id, { status: 'FAILED' });
      expect(failed.map((delivery) => delivery.id)).toEqual([ids[0]]);
      expect(failed[0].attempts).toHaveLength(4);
      expect(await api.deliveries(key, endpoint.id, { status: 'PENDING' })).toEqual([]);

      const page1 = await api.get(key, '/v1/webhooks/deliveries', { id: endpoint.id, limit: 3 });
      expectOk(page1);
      expect(page1.body.data.items.map((delivery: Delivery) => delivery.id)).toEqual(ids.slice(0, 3));
      expect(page1.body.data.hasMore).toBe(true);
      const page2 = await api.get(key, '/v1/webhooks/deliveries', { id: endpoint.id, limit: 3, after: page1.body.data.next });
      expectOk(page2);
      expect(page2.body.data.items.map((delivery: Delivery) => delivery.id)).toEqual(ids.slice(3));
      expect(page2.body.data).toMatchObject({ hasMore: false, next: null });
      const filteredPage = await api.get(key, '/v1/webhooks/deliveries', { id: endpoint.id, status: 'SUCCEEDED', limit: 2 });
      expect(filteredPage.body.data.items.map((delivery: Delivery) => delivery.id)).toEqual(ids.slice(1, 3));
      expect(filteredPage.body.data.hasMore).toBe(true);

      expectValidationField(await api.get(key, '/v1/webhooks/deliveries', { id: endpoint.id, status: 'DONE' }), 'status');
      expectValidationField(await api.get(key, '/v1/webhooks/deliveries', {}), 'id');
      expectValidationField(await api.get(key, '/v1/webhooks/deliveries', { id: endpoint.id, limit: 101 }), 'limit');
      expectError(await api.get(key, '/v1/webhooks/deliveries', { id: MISSING_ENDPOINT }), 404, 'NOT_FOUND');
    });

    it('resend: a new delivery of the same event arrives again with the same webhook-id', async () => {
      const { key, productId } = await shop();
      const r = await receiver();
      const endpoint = await api.createEndpoint(key, { url: r.url, events: ['checkout.created'] });
      await api.createCheckout(key, productId);
      const [original] = await api.settledDeliveries(key, endpoint.id, 1);
      const [firstRequest] = await r.waitFor(1);

      const response = await api.post(key, '/v1/webhooks/resend', { deliveryId: original.id });
      expectOk(response);
      expect(response.body.data).toMatchObject({ endpointId: endpoint.id, eventId: original.eventId, eventType: 'checkout.created' });
      expect(response.body.data.id).toMatch(DELIVERY_ID);
      expect(response.body.data.id).not.toBe(original.id);

      const [, again] = await r.waitFor(2);
      expect(again.webhookId).toBe(original.eventId);
      expect(again.body).toBe(firstRequest.body);
      expect(verifies(endpoint.secret, again)).toBe(true);
      const deliveries = await api.settledDeliveries(key, endpoint.id, 2);
      expect(deliveries.map((delivery) => [delivery.id, delivery.status])).toEqual([
        [response.body.data.id, 'SUCCEEDED'],
        [original.id, 'SUCCEEDED'],
      ]);
      expect(deliveries[1]).toEqual(original); // the original is untouched

      expectError(await api.post(key, '/v1/webhooks/resend', { deliveryId: MISSING_DELIVERY }), 404, 'NOT_FOUND');
      expectValidationField(await api.post(key, '/v1/webhooks/resend', {}), 'deliveryId');
      expectValidationField(await api.post(key, '/v1/webhooks/resend', { id: original.id }), 'deliveryId');
    });

    it('outbox: an event recorded in a transaction that rolls back leaves no event and no delivery', async () => {
      const { merchant, key } = await shop();
      const r = await receiver();
      const endpoint = await api.createEndpoint(key, { url: r.url, events: ['*'] });
      const events = app.app.get(EventsService);
      const scope = { storeId: merchant.storeId, mode: 'test' as const };

      let rolledBack = '';
      await expect(
        app.database.transaction(async (trx) => {
          rolledBack = await events.record(scope, 'checkout.created', { id: 'bill_rolled_back' }, trx);
          throw new Error('the state change failed');
        }),
      ).rejects.toThrow('the state change failed');
      expect(rolledBack).toMatch(EVENT_ID);

      // Control: the same record committed makes an event and a delivery, and it is sent.
      const committed = await app.database.transaction((trx) => events.record(scope, 'checkout.created', { id: 'bill_committed' }, trx));
      const [request] = await r.waitFor(1);
      expect(request.webhookId).toBe(committed);

      expect(await db().selectFrom('events').select('id').where('id', '=', rolledBack).execute()).toEqual([]);
      expect(await db().selectFrom('webhook_deliveries').select('id').where('event_id', '=', rolledBack).execute()).toEqual([]);
      expectError(await api.get(key, '/v1/events/get', { id: rolledBack }), 404, 'NOT_FOUND');
      expect((await deliveryRows(endpoint.id)).map((row) => row.event_id)).toEqual([committed]);
      expect(r.requests.map((item) => item.webhookId)).toEqual([committed]);
    });
  });

  describe('sender (webhook-sender.ts)', () => {
    it('records a timeout as an error with no status code', async () => {
      const r = await receiver();
      r.setDefault('hang');
      const result = await postWebhook(`${r.url}/slow`, '{"a":1}', { 'webhook-id': 'evt_x' }, { timeoutMs: 200, publicOnly: false });
      expect(result.statusCode).toBeNull();
      expect(result.error).toEqual(expect.stringMatching(/time/i));
      expect(result.durationMs).toBeGreaterThanOrEqual(150);
      await r.waitFor(1);
      expect(r.requests[0].body).toBe('{"a":1}');
    });

    it('times out a receiver that answers 200 but drips its body past the deadline (not a success)', async () => {
      const dripping = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => response.write('.'), 40);
        response.on('close', () => clearInterval(timer));
      });
      await new Promise<void>((resolve) => dripping.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = dripping.address() as { port: number };
        const result = await postWebhook(`http://127.0.0.1:${port}/drip`, '{}', { 'webhook-id': 'evt_drip' }, { timeoutMs: 300, publicOnly: false });
        expect(result.statusCode).toBeNull();
        expect(result.error).toEqual(expect.stringMatching(/timed out/));
        expect(result.durationMs).toBeGreaterThanOrEqual(250);
      } finally {
        dripping.closeAllConnections();
        await new Promise((resolve) => dripping.close(resolve));
      }
    });

    it('answers the status code of any response, with no error', async () => {
      const r = await receiver();
      r.answer(204, 302, 500);
      const headers = { 'webhook-id': 'evt_y' };
      const options = { timeoutMs: 2000, publicOnly: false };
      expect(await postWebhook(r.url, '{}', headers, options)).toMatchObject({ statusCode: 204, error: null });
      expect(await postWebhook(r.url, '{}', headers, options)).toMatchObject({ statusCode: 302, error: null });
      expect(await postWebhook(r.url, '{}', headers, options)).toMatchObject({ statusCode: 500, error: null });
      expect(r.requests.map((request) => request.headers['webhook-id'])).toEqual(['evt_y', 'evt_y', 'evt_y']);
    });

    it('live (publicOnly) deliveries never connect to a loopback destination, by name or by literal address', async () => {
      const r = await receiver();
      const options = { timeoutMs: 2000, publicOnly: true };
      const byName = await postWebhook(`http://localhost:${r.port}/x`, '{}', {}, options);
      expect(byName.statusCode).toBeNull();
      expect(byName.error).toEqual(expect.stringMatching(/non-public/));
      const byAddress = await postWebhook(`http://127.0.0.1:${r.port}/x`, '{}', {}, options);
      expect(byAddress.statusCode).toBeNull();
      expect(byAddress.error).toEqual(expect.stringMatching(/non-public/));
      expect(r.requests).toHaveLength(0);
      // The same receiver is reachable for sandbox deliveries.
      expect((await postWebhook(`http://127.0.0.1:${r.port}/x`, '{}', {}, { timeoutMs: 2000, publicOnly: false })).statusCode).toBe(200);
    });
  });

  describe('isolation and permissions', () => {
    let owner: RegisteredMerchant;
    let ownerLive: string;
    let rival: RegisteredMerchant;
    let endpoint: Endpoint & { secret: string };
    let delivery: Delivery;

    beforeAll(async () => {
      const r = await receiver();
      owner = await registerMerchant(app, 'Loja Dona');
      ownerLive = (await createKey(app, owner.session, { mode: 'live', permissions: ['*'] })).key;
      rival = await registerMerchant(app, 'Loja Rival');
      endpoint = await api.createEndpoint(owner.testKey, { url: r.url, events: ['*'] });
      const productId = await api.createProduct(owner.testKey);
      await api.createCheckout(owner.testKey, productId);
      [delivery] = await api.settledDeliveries(owner.testKey, endpoint.id, 1);
    });

    it("another merchant's or the other mode's key sees none of the endpoints, deliveries and events (404)", async () => {
      for (const key of [rival.testKey, ownerLive]) {
        expectError(await api.get(key, '/v1/webhooks/get', { id: endpoint.id }), 404, 'NOT_FOUND');
        expectError(await api.post(key, '/v1/webhooks/update', { id: endpoint.id, enabled: false }), 404, 'NOT_FOUND');
        expectError(await api.post(key, '/v1/webhooks/rotate-secret', { id: endpoint.id }), 404, 'NOT_FOUND');
        expectError(await api.post(key, '/v1/webhooks/test', { id: endpoint.id }), 404, 'NOT_FOUND');
        expectError(await api.get(key, '/v1/webhooks/deliveries', { id: endpoint.id }), 404, 'NOT_FOUND');
        expectError(await api.post(key, '/v1/webhooks/resend', { deliveryId: delivery.id }), 404, 'NOT_FOUND');
        expectError(await api.post(key, '/v1/webhooks/delete', { id: endpoint.id }), 404, 'NOT_FOUND');
        expectError(await api.get(key, '/v1/events/get', { id: delivery.eventId }), 404, 'NOT_FOUND');
        const endpoints = await api.get(key, '/v1/webhooks/list');
        expect(endpoints.body.data.items.map((item: Endpoint) => item.id)).not.toContain(endpoint.id);
        const events = await api.get(key, '/v1/events/list', { limit: 100 });
        expect(events.body.data.items.map((item: EventBody) => item.id)).not.toContain(delivery.eventId);
      }
      // Nothing above changed the owner's endpoint or made a delivery.
      const { secret, ...visible } = endpoint;
      expect(secret).toMatch(SECRET);
      expect(await api.getEndpoint(owner.testKey, endpoint.id)).toEqual(visible);
      expect(await api.deliveries(owner.testKey, endpoint.id)).toHaveLength(1);
    });

    it('webhooks:read reads, webhooks:write changes, neither implies the other (403 FORBIDDEN)', async () => {
      const reader = (await createKey(app, owner.session, { permissions: ['webhooks:read'] })).key;
      const writer = (await createKey(app, owner.session, { permissions: ['webhooks:write'] })).key;
      const stranger = (await createKey(app, owner.session, { permissions: ['checkouts:read', 'checkouts:write'] })).key;
      const reads = (key: string) => [
        api.get(key, '/v1/webhooks/list'),
        api.get(key, '/v1/webhooks/get', { id: endpoint.id }),
        api.get(key, '/v1/webhooks/deliveries', { id: endpoint.id }),
        api.get(key, '/v1/events/list'),
        api.get(key, '/v1/events/get', { id: delivery.eventId }),
      ];
      const writes = (key: string) => [
        api.post(key, '/v1/webhooks/create', { url: 'http://127.0.0.1:9/x', events: ['*'], enabled: false }),
        api.post(key, '/v1/webhooks/update', { id: endpoint.id, description: `by ${key.slice(-4)}` }),
        api.post(key, '/v1/webhooks/rotate-secret', { id: endpoint.id }),
        api.post(key, '/v1/webhooks/test', { id: endpoint.id }),
        api.post(key, '/v1/webhooks/resend', { deliveryId: delivery.id }),
      ];
      const statuses = async (requests: Array<PromiseLike<Response>>) => (await Promise.all(requests)).map((response) => response.status);

      expect(await statuses(reads(reader))).toEqual([200, 200, 200, 200, 200]);
      expect(await statuses(writes(reader))).toEqual([403, 403, 403, 403, 403]);
      expect(await statuses(reads(writer))).toEqual([403, 403, 403, 403, 403]);
      expect(await statuses(writes(writer))).toEqual([201, 200, 200, 200, 200]);
      expect(await statuses(reads(stranger))).toEqual([403, 403, 403, 403, 403]);
      expect(await statuses(writes(stranger))).toEqual([403, 403, 403, 403, 403]);
      expectError(await api.post(reader, '/v1/webhooks/delete', { id: endpoint.id }), 403, 'FORBIDDEN');
      expectError(await api.get(writer, '/v1/webhooks/list'), 403, 'FORBIDDEN');
      expectOk(await api.get(owner.testKey, '/v1/webhooks/get', { id: endpoint.id }));
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Several apps on one database: restarts and instances
// ---------------------------------------------------------------------------------------------------------------

describe('Webhooks — durability and several instances (API.md §13, §15)', () => {
  const apps: TestApp[] = [];
  const databases: TestDatabase[] = [];
  const receivers: Receiver[] = [];
  let current: TestApp;
  const api = apiOf(() => current);

  const boot = async (database: TestDatabase, env: Record<string, string> = FAST_RETRIES) => {
    const started = await startTestApp({ database, env });
    apps.push(started);
    return started;
  };
  const stop = async (target: TestApp) => {
    apps.splice(apps.indexOf(target), 1);
    await target.close();
  };
  const newDatabase = async () => {
    const database = await createTestDatabase();
    databases.push(database);
    return database;
  };
  const receiver = async () => {
    const created = await startReceiver();
    receivers.push(created);
    return created;
  };
  const deliveryRow = (target: TestApp, eventId: string) =>
    target.database.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();

  afterEach(async () => {
    for (const target of apps.splice(0)) await target.close();
    for (const database of databases.splice(0)) await database.drop();
    for (const item of receivers.splice(0)) await item.close();
  });

  it('a delivery committed while no worker runs is sent by the next start (outbox)', async () => {
    const database = await newDatabase();
    const r = await receiver();
    current = await boot(database);
    await current.app.get(WebhookWorker).onModuleDestroy(); // this instance never sends: it "dies" after commit
    const merchant = await registerMerchant(current);
    const endpoint = await api.createEndpoint(merchant.testKey, { url: r.url, events: ['*'] });
    const checkout = await api.createCheckout(merchant.testKey, await api.createProduct(merchant.testKey));
    const event = await api.eventOf(merchant.testKey, 'checkout.created', checkout.id);
    expect(await deliveryRow(current, event.id)).toMatchObject({ status: 'PENDING', attempt_count: 0 });
    await stop(current);
    expect(r.requests).toHaveLength(0);

    current = await boot(database);
    const [request] = await r.waitFor(1);
    expect(request.webhookId).toBe(event.id);
    expect(verifies(endpoint.secret, request)).toBe(true);
    const [delivery] = await api.settledDeliveries(merchant.testKey, endpoint.id, 1);
    expect(delivery).toMatchObject({ eventId: event.id, status: 'SUCCEEDED' });
    expect(delivery.attempts.map((attempt) => attempt.statusCode)).toEqual([200]);
  });

  it('a PENDING delivery whose receiver failed survives a restart and is delivered by the new process', async () => {
    const database = await newDatabase();
    const r = await receiver();
    r.setDefault(500);
    const slowRetries = { WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1' };
    current = await boot(database, slowRetries);
    const merchant = await registerMerchant(current);
    const endpoint = await api.createEndpoint(merchant.testKey, { url: r.url, events: ['checkout.created'] });
    const checkout = await api.createCheckout(merchant.testKey, await api.createProduct(merchant.testKey));
    const event = await api.eventOf(merchant.testKey, 'checkout.created', checkout.id);
    const first = current;
    await until(async () => (await deliveryRow(first, event.id)).attempt_count >= 1, 'the first failed attempt to be recorded');
    expect(await deliveryRow(first, event.id)).toMatchObject({ status: 'PENDING' });
    await stop(first);
    const sentBefore = r.requests.length;
    expect(sentBefore).toBeGreaterThanOrEqual(1);

    r.setDefault(200);
    current = await boot(database, slowRetries);
    const requests = await r.waitFor(sentBefore + 1);
    expect(requests.map((request) => request.webhookId)).toEqual(Array(sentBefore + 1).fill(event.id));
    const [delivery] = await api.settledDeliveries(merchant.testKey, endpoint.id, 1);
    expect(delivery.status).toBe('SUCCEEDED');
    expect(delivery.attempts.map((attempt) => attempt.statusCode)).toEqual([...Array(sentBefore).fill(500), 200]);
  });

  it('shutdown waits for the attempt in flight and records it (no resend after the restart)', async () => {
    const database = await newDatabase();
    const r = await receiver();
    current = await boot(database);
    const merchant = await registerMerchant(current);
    const endpoint = await api.createEndpoint(merchant.testKey, { url: r.url, events: ['checkout.created'] });
    const held = r.hold();
    const checkout = await api.createCheckout(merchant.testKey, await api.createProduct(merchant.testKey));
    await held.arrived;
    const first = current;
    apps.splice(apps.indexOf(first), 1);
    const closing = first.close();
    setTimeout(() => held.release(200), 300);
    await closing;

    current = await boot(database);
    const event = await api.eventOf(merchant.testKey, 'checkout.created', checkout.id);
    const row = await deliveryRow(current, event.id);
    expect(row).toMatchObject({ status: 'SUCCEEDED', attempt_count: 1, locked_until: null });
    expect((JSON.parse(row.attempts) as Attempt[]).map((attempt) => attempt.statusCode)).toEqual([200]);
    // A second event goes out after it (so the worker is running), and the first was never sent again.
    const second = await api.createCheckout(merchant.testKey, await api.createProduct(merchant.testKey));
    await r.waitFor(2);
    expect(r.requests.map((request) => request.event.data.object.id)).toEqual([checkout.id, second.id]);
    expect((await api.deliveries(merchant.testKey, endpoint.id)).map((delivery) => delivery.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
  });

  it('two instances on one database deliver 30 events to 3 endpoints exactly once each', async () => {
    const database = await newDatabase();
    const r = await receiver();
    const one = await boot(database);
    const two = await boot(database);
    current = one;
    const merchant = await registerMerchant(one);
    const key = merchant.testKey;
    const productId = await api.createProduct(key);
    for (const path of ['a', 'b', 'c']) await api.createEndpoint(key, { url: `${r.url}/${path}`, events: ['checkout.created'] });

    const twoApi = apiOf(() => two);
    const checkouts: string[] = [];
    for (let i = 0; i < 30; i += 1) checkouts.push((await (i % 2 === 0 ? api : twoApi).createCheckout(key, productId)).id);

    await r.waitFor(90);
    await until(
      async () => (await one.database.db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'SUCCEEDED').execute()).length === 0,
      'every delivery to succeed',
    );
    // Closing drains whatever either instance still had in flight: every send that will ever happen has happened.
    await stop(two);
    const rows = await one.database.db.selectFrom('webhook_deliveries').select(['attempt_count', 'status']).execute();
    await stop(one);

    expect(rows).toHaveLength(90);
    expect(rows.every((row) => row.status === 'SUCCEEDED' && row.attempt_count === 1)).toBe(true);
    const counts = new Map<string, number>();
    for (const request of r.requests) counts.set(`${request.path} ${request.webhookId}`, (counts.get(`${request.path} ${request.webhookId}`) ?? 0) + 1);
    expect(counts.size).toBe(90);
    expect([...counts.values()].filter((count) => count !== 1)).toEqual([]);
    expect(new Set(r.requests.map((request) => request.event.data.object.id))).toEqual(new Set(checkouts));
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The worker driven by hand: its loop is stopped and each pass is one runOnce(), so "nothing else was sent" is exact
// ---------------------------------------------------------------------------------------------------------------

describe('Webhooks — the delivery worker pass by pass (API.md §13)', () => {
  let app: TestApp;
  let worker: WebhookWorker;
  let repository: WebhookDeliveriesRepository;
  const receivers: Receiver[] = [];
  const api = apiOf(() => app);
  const rowsOf = (endpointId: string) =>
    app.database.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id', 'asc').execute();
  const receiver = async () => {
    const created = await startReceiver();
    receivers.push(created);
    return created;
  };

  beforeAll(async () => {
    app = await startTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '60' } });
    worker = app.app.get(WebhookWorker);
    await worker.onModuleDestroy(); // stop the loop; passes are run below
    repository = app.app.get(WebhookDeliveriesRepository);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await app?.close();
    await Promise.all(receivers.map((item) => item.close()));
  });

  it('a worker holding a stale read cannot lease a delivery another worker already attempted (no early second send)', async () => {
    const merchant = await registerMerchant(app);
    const r = await receiver();
    r.answer(500);
    const endpoint = await api.createEndpoint(merchant.testKey, { url: r.url, events: ['checkout.created'] });
    await api.createCheckout(merchant.testKey, await api.createProduct(merchant.testKey));

    // Worker B reads what is due, then is slow; meanwhile worker A sends the delivery and gets a 500.
    const staleRead = await repository.findDue(new Date().toISOString(), 500);
    expect(staleRead.filter((row) => row.endpoint_id === endpoint.id)).toHaveLength(1);
    expect(await worker.runOnce()).toBe(1);
    expect(r.requests).toHaveLength(1);
    const [afterA] = await rowsOf(endpoint.id);
    expect(afterA).toMatchObject({ status: 'PENDING', attempt_count: 1, locked_until: null });
    expect(Date.parse(afterA.next_attempt_at!)).toBeGreaterThan(Date.now() + 30_000); // the retry is ~60 s away

    // Worker B goes on with its stale read: it must not lease, send, or overwrite A's recorded attempt.
    jest.spyOn(repository, 'findDue').mockResolvedValueOnce(staleRead);
    expect(await worker.runOnce()).toBe(0);
    expect(r.requests).toHaveLength(1);
    const [afterB] = await rowsOf(endpoint.id);
    expect(afterB).toMatchObject({ status: 'PENDING', attempt_count: 1, next_attempt_at: afterA.next_attempt_at });
    expect(JSON.parse(afterB.attempts)).toEqual(JSON.parse(afterA.attempts));

    expectOk(await api.post(merchant.testKey, '/v1/webhooks/delete', { id: endpoint.id }));
  });

  it('deleting an endpoint while a pass is sending to it: its other pending deliveries are never sent', async () => {
    const merchant = await registerMerchant(app);
    const r = await receiver();
    const endpoint = await api.createEndpoint(merchant.testKey, { url: r.url, events: ['checkout.created'] });
    const productId = await api.createProduct(merchant.testKey);
    const first = await api.createCheckout(merchant.testKey, productId);
    const second = await api.createCheckout(merchant.testKey, productId);
    expect((await rowsOf(endpoint.id)).map((row) => row.status)).toEqual(['PENDING', 'PENDING']);

    const held = r.hold();
    const pass = worker.runOnce();
    await held.arrived;
    expectOk(await api.post(merchant.testKey, '/v1/webhooks/delete', { id: endpoint.id }));
    held.release(200);
    await pass;

    expect(r.requests.map((request) => request.event.data.object.id)).toEqual([first.id]);
    const rows = await rowsOf(endpoint.id);
    expect(rows[0].event_id).toBe(r.requests[0].webhookId);
    expect(rows[1]).toMatchObject({ status: 'FAILED', next_attempt_at: null });
    expect(r.requests.some((request) => request.event.data.object.id === second.id)).toBe(false);
    await worker.runOnce();
    expect(r.requests).toHaveLength(1);
  });

  it('disabling an endpoint while a pass is sending to it: its other pending deliveries are never sent', async () => {
    const merchant = await registerMerchant(app);
    const r = await receiver();
    const endpoint = await api.createEndpoint(merchant.testKey, { url: r.url, events: ['checkout.created'] });
    const productId = await api.createProduct(merchant.testKey);
    const first = await api.createCheckout(merchant.testKey, productId);
    await api.createCheckout(merchant.testKey, productId);

    const held = r.hold();
    const pass = worker.runOnce();
    await held.arrived;
    expectOk(await api.post(merchant.testKey, '/v1/webhooks/update', { id: endpoint.id, enabled: false }));
    held.release(200);
    await pass;
    await worker.runOnce();

    expect(r.requests.map((request) => request.event.data.object.id)).toEqual([first.id]);
    expect((await rowsOf(endpoint.id))[1]).toMatchObject({ status: 'FAILED', next_attempt_at: null });
    expectOk(await api.post(merchant.testKey, '/v1/webhooks/delete', { id: endpoint.id }));
  });
});
