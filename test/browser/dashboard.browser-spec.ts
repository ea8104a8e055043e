import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page, Response as PageResponse } from 'playwright-core';
import type { Response } from 'supertest';
import { launchBrowser, TestBrowser } from '../support/browser';
import { bearer, uniqueEmail } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The merchant dashboard in a real browser — API.md §14 (hosted pages and dashboard), §3 (accounts), §5 (API keys),
 * issue 6. One app and one headless Chromium for the whole file; the tests run in order and build on each other like
 * one merchant's session: register, log out, log in, keys (create, use, roll, revoke), forged posts, payments,
 * webhooks. Every page the browser shows is recorded (screenshot under test/artifacts/ and its HTML), and the last
 * test checks that no recorded page ever contained a secret except the one page right after its creation.
 */
jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery staple';
const STORE_NAME = 'Loja da Ana';
const MERCHANT_NAME = 'Ana Souza';
const LAN_HOST = 'payments.lan.test';
const SECRET_PATTERN = /sk_(test|live)_[A-Za-z0-9]{16,}/;

interface Snapshot {
  name: string;
  url: string;
  html: string;
}
interface KeyObject {
  id: string;
  name: string;
  mode: string;
  permissions: string[];
  prefix: string;
  last4: string;
  expiresAt: string | null;
  revokedAt: string | null;
}
interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: unknown[];
}

describe('merchant dashboard in the browser (API.md §14, issue 6)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let page: Page;
  let receiver: Server;
  let receiverUrl = '';
  let received = 0;

  const email = uniqueEmail('ana');
  /** Every page the browser showed, in order. */
  const snapshots: Snapshot[] = [];
  /** Every secret the test learnt, with the one recorded page allowed to show it (the page right after creation). */
  const secrets = new Map<string, string>();
  let defaultKey = '';
  let restricted = { id: '', key: '' };
  let rolled = { id: '', key: '' };
  let webhookSecret = '';

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received += 1;
        response.writeHead(500, { 'content-type': 'text/plain' }).end('receiver down');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    // One retry 0.3 s after the first attempt: a delivery to the failing receiver ends FAILED with 2 attempts.
    app = await startTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '0.3' } });
    browser = await launchBrowser(app.url, { hostAliases: [LAN_HOST] });
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  // -------------------------------------------------------------------------------------------------------------
  // helpers
  // -------------------------------------------------------------------------------------------------------------

  /** Screenshot (test/artifacts/<name>.png) and HTML of the page the browser shows now. */
  const record = async (name: string): Promise<string> => {
    await browser.screenshot(page, name);
    const html = await page.content();
    snapshots.push({ name, url: page.url(), html });
    return html;
  };

  /** The final (non-redirect) document response of a navigation the action starts. */
  const navigation = async (action: () => Promise<unknown>): Promise<PageResponse> => {
    const final = page.waitForResponse(
      (response) =>
        response.request().isNavigationRequest() &&
        response.request().frame() === page.mainFrame() &&
        !(response.status() >= 300 && response.status() < 400),
    );
    await action();
    const response = await final;
    await page.waitForLoadState('load');
    return response;
  };
  const visit = async (path: string): Promise<PageResponse> => {
    const response = await page.goto(path);
    if (response === null) throw new Error(`no response for ${path}`);
    return response;
  };
  const click = (locator: Locator) => navigation(() => locator.click());
  const path = () => new URL(page.url()).pathname;
  const search = () => new URL(page.url()).search;

  const sessionCookie = async () => {
    const cookie = (await browser.context.cookies(app.url)).find((entry) => entry.name === 'sess');
    if (!cookie) throw new Error('no sess cookie in the browser');
    return cookie;
  };
  const browserCookies = async () => (await browser.context.cookies(app.url)).map((entry) => `${entry.name}=${entry.value}`).join('; ');

  const api = {
    get: (token: string, route: string, query: Record<string, string> = {}) => app.http().get(route).query(query).set(bearer(token)),
    post: (token: string, route: string, body: Record<string, unknown> = {}) => app.http().post(route).set(bearer(token)).send(body),
  };
  const expectOk = (response: Response, status = 200) => {
    expect({ status: response.status, error: response.body?.error ?? null }).toEqual({ status, error: null });
    return response.body.data;
  };
  const expectError = (response: Response, status: number, code: string) => {
    expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  };
  const listKeys = async (): Promise<KeyObject[]> => expectOk(await api.get((await sessionCookie()).value, '/v1/api-keys/list')).items;
  /** What a forged post could change about the keys (not `lastUsedAt`, which every use moves). */
  const keyStates = async () => (await listKeys()).map(({ id, name, permissions, expiresAt, revokedAt }) => ({ id, name, permissions, expiresAt, revokedAt }));
  const keyById = async (id: string): Promise<KeyObject> => expectOk(await api.get((await sessionCookie()).value, '/v1/api-keys/get', { id }));
  const newKeyValue = () => page.getByTestId('new-key-value').inputValue();
  const keyRow = (id: string) => page.locator(`tr[data-key-id="${id}"]`);

  let productCounter = 0;
  const checkoutOf = async (price: number, name: string) => {
    productCounter += 1;
    const product = expectOk(
      await api.post(defaultKey, '/v1/products/create', { externalId: `sku-${productCounter}`, name, price }),
      201,
    );
    return expectOk(await api.post(defaultKey, '/v1/checkouts/create', { items: [{ productId: product.id, quantity: 1 }] }), 201) as {
      id: string;
      amount: number;
    };
  };

  const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  // -------------------------------------------------------------------------------------------------------------
  // register, log out, log in
  // -------------------------------------------------------------------------------------------------------------

  it('register: a weak password is explained and what was typed is kept, except the password', async () => {
    const shown = await visit('/register');
    expect(shown.status()).toBe(200);
    await record('register');
    // Every field has a label.
    for (const label of ['Your name', 'Email', 'Password', 'Store name']) await expect(page.getByLabel(label).count()).resolves.toBe(1);

    await page.getByLabel('Your name').fill(MERCHANT_NAME);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Store name').fill(STORE_NAME);
    const refused = await click(page.getByRole('button', { name: 'Create account' }));
    await record('register-error');

    expect(refused.status()).toBe(400);
    expect(path()).toBe('/register');
    await expect(page.locator('#password-error').textContent()).resolves.toContain('at least 10 characters');
    await expect(page.getByLabel('Your name').inputValue()).resolves.toBe(MERCHANT_NAME);
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(email);
    await expect(page.getByLabel('Store name').inputValue()).resolves.toBe(STORE_NAME);
    await expect(page.getByLabel('Password').inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain('value="short"');
    // Nothing was created.
    expectError(await app.http().post('/v1/auth/login').send({ email, password: 'short' }), 401, 'INVALID_CREDENTIALS');
  });

  it('register: an email already taken says so and keeps the form', async () => {
    const taken = uniqueEmail('taken');
    expectOk(await app.http().post('/v1/auth/register').send({ name: 'Someone Else', email: taken, password: PASSWORD }), 201);

    await visit('/register');
    await record('register-again');
    await page.getByLabel('Your name').fill(MERCHANT_NAME);
    await page.getByLabel('Email').fill(taken);
    await page.getByLabel('Password').fill(PASSWORD);
    const refused = await click(page.getByRole('button', { name: 'Create account' }));
    await record('register-taken');

    expect(refused.status()).toBe(409);
    await expect(page.locator('#email-error').textContent()).resolves.toContain('already exists');
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(taken);
    await expect(page.getByLabel('Your name').inputValue()).resolves.toBe(MERCHANT_NAME);
    await expect(page.getByLabel('Password').inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain(PASSWORD);
    expect((await browser.context.cookies(app.url)).some((cookie) => cookie.name === 'sess')).toBe(false);
  });

  it('register: success lands on /dashboard with the store, both balances and the default sandbox key shown once', async () => {
    await visit('/register');
    await record('register-filled-page');
    await page.getByLabel('Your name').fill(MERCHANT_NAME);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Store name').fill(STORE_NAME);
    const landed = await click(page.getByRole('button', { name: 'Create account' }));
    await record('dashboard-welcome');

    expect(landed.status()).toBe(200);
    expect(path()).toBe('/dashboard');
    await expect(page.locator('h1').textContent()).resolves.toBe(STORE_NAME);
    await expect(page.getByTestId('balance-test').textContent()).resolves.toMatch(/Sandbox[\s\S]*R\$ 0,00/);
    await expect(page.getByTestId('balance-live').textContent()).resolves.toMatch(/Live[\s\S]*R\$ 0,00/);
    await expect(page.getByTestId('new-key').textContent()).resolves.toContain('you will not see this key again');
    defaultKey = await newKeyValue();
    expect(defaultKey).toMatch(/^sk_test_/);
    secrets.set(defaultKey, 'dashboard-welcome');

    // The key shown is the merchant's own default sandbox key with `*`.
    const me = expectOk(await api.get(defaultKey, '/v1/stores/list'));
    expect(me.items[0].name).toBe(STORE_NAME);
    const keys = await listKeys();
    expect(keys.map((key) => [key.mode, key.permissions, key.last4])).toEqual([['test', ['*'], defaultKey.slice(-4)]]);

    // Shown once: a reload no longer has it.
    await page.reload();
    await record('dashboard-reloaded');
    await expect(page.getByTestId('new-key').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(defaultKey);
    await expect(page.locator('h1').textContent()).resolves.toBe(STORE_NAME);
  });

  it('the sess cookie is HttpOnly, SameSite=Lax and not Secure on http', async () => {
    const cookie = await sessionCookie();
    expect(cookie.value).toMatch(/^sess_/);
    expect({ httpOnly: cookie.httpOnly, sameSite: cookie.sameSite, secure: cookie.secure, path: cookie.path }).toEqual({
      httpOnly: true,
      sameSite: 'Lax',
      secure: false,
      path: '/',
    });
    // A session cookie for days, not a browser-session cookie.
    expect(cookie.expires).toBeGreaterThan(Date.now() / 1000 + 3600);
    // Scripts on the page cannot read it.
    await expect(page.evaluate<string>('document.cookie')).resolves.not.toContain('sess_');
  });

  it('log out ends the session and dashboard pages then redirect to /login', async () => {
    const before = (await sessionCookie()).value;
    expectOk(await api.get(before, '/v1/auth/me'));

    const out = await click(page.getByRole('button', { name: 'Log out' }));
    await record('logged-out');
    expect(out.status()).toBe(200);
    expect(path()).toBe('/login');
    await expect(page.getByRole('status').textContent()).resolves.toContain('logged out');
    expect((await browser.context.cookies(app.url)).some((cookie) => cookie.name === 'sess')).toBe(false);
    expectError(await api.get(before, '/v1/auth/me'), 401, 'UNAUTHENTICATED');

    for (const target of ['/dashboard', '/dashboard/api-keys', '/dashboard/payments', '/dashboard/webhooks']) {
      await visit(target);
      expect(path()).toBe('/login');
    }
    await record('login');
    for (const label of ['Email', 'Password']) await expect(page.getByLabel(label).count()).resolves.toBe(1);
  });

  it('log in: a wrong password says "incorrect" and keeps the email; the right one lands on the dashboard', async () => {
    await visit('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not my password at all');
    const refused = await click(page.getByRole('button', { name: 'Log in' }));
    await record('login-error');
    expect(refused.status()).toBe(401);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('incorrect');
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(email);
    await expect(page.getByLabel('Password').inputValue()).resolves.toBe('');
    expect((await browser.context.cookies(app.url)).some((cookie) => cookie.name === 'sess')).toBe(false);

    await page.getByLabel('Password').fill(PASSWORD);
    const landed = await click(page.getByRole('button', { name: 'Log in' }));
    await record('dashboard-after-login');
    expect(landed.status()).toBe(200);
    expect(path()).toBe('/dashboard');
    await expect(page.locator('h1').textContent()).resolves.toBe(STORE_NAME);
    const cookie = await sessionCookie();
    expect([cookie.httpOnly, cookie.sameSite, cookie.secure]).toEqual([true, 'Lax', false]);
    expectOk(await api.get(cookie.value, '/v1/auth/me'));
    // A logged-in visitor of /login goes to the dashboard.
    await visit('/login');
    expect(path()).toBe('/dashboard');
  });

  it('dashboard responses carry helmet security headers', async () => {
    const response = await visit('/dashboard');
    await record('dashboard-headers');
    const headers = response.headers();
    expect(headers['content-security-policy']).toMatch(/default-src 'self'/);
    const framing = headers['x-frame-options'] ?? '';
    expect(/^(DENY|SAMEORIGIN)$/i.test(framing) || /frame-ancestors '(none|self)'/.test(headers['content-security-policy'])).toBe(true);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-powered-by']).toBeUndefined();
    expect(headers['content-type']).toMatch(/^text\/html/);
    // PUBLIC_BASE_URL is http here: asking browsers to upgrade requests to https would break every page.
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });

  it('served over plain http from a non-local host name, the stylesheet loads and the forms post', async () => {
    const lan = await browser.newPage();
    try {
      const lanUrl = `http://${LAN_HOST}:${new URL(app.url).port}`;
      const shown = await lan.goto(`${lanUrl}/login`);
      expect(shown?.status()).toBe(200);
      await lan.waitForLoadState('load');
      // app.css paints the page background; unstyled it would be transparent.
      await expect(lan.evaluate<string>('getComputedStyle(document.body).backgroundColor')).resolves.toBe('rgb(246, 247, 249)');
      await lan.getByLabel('Email').fill(email);
      await lan.getByLabel('Password').fill('not my password at all');
      const answered = lan.waitForResponse((response) => response.request().method() === 'POST' && response.url() === `${lanUrl}/login`);
      await lan.getByRole('button', { name: 'Log in' }).click();
      expect((await answered).status()).toBe(401);
      await lan.waitForLoadState('load');
      expect(lan.url()).toBe(`${lanUrl}/login`);
      await expect(lan.getByRole('alert').textContent()).resolves.toContain('incorrect');
      await browser.screenshot(lan, 'login-lan-host');
      snapshots.push({ name: 'login-lan-host', url: lan.url(), html: await lan.content() });
    } finally {
      await lan.close();
    }
  });

  // -------------------------------------------------------------------------------------------------------------
  // API keys
  // -------------------------------------------------------------------------------------------------------------

  it('creates a restricted key (customers:read): shown once with the warning, works for reads, 403 for writes', async () => {
    await visit('/dashboard/api-keys');
    await record('api-keys');
    const before = await listKeys();

    await page.getByLabel('Name', { exact: true }).fill('CRM reader');
    await page.getByLabel('Sandbox (sk_test_)').check();
    await page.getByLabel('customers:read', { exact: true }).check();
    await click(page.getByRole('button', { name: 'Create key' }));
    await record('api-key-created');

    expect(path()).toBe('/dashboard/api-keys');
    const box = page.getByTestId('new-key');
    await expect(box.textContent()).resolves.toContain('you will not see this key again');
    await expect(box.getByRole('button', { name: 'Copy' }).count()).resolves.toBe(1);
    const key = await newKeyValue();
    expect(key).toMatch(/^sk_test_[A-Za-z0-9]{16,}$/);
    expect(key).not.toBe(defaultKey);
    secrets.set(key, 'api-key-created');

    const after = await listKeys();
    expect(after).toHaveLength(before.length + 1);
    const created = after.find((entry) => entry.name === 'CRM reader');
    expect(created).toMatchObject({ mode: 'test', permissions: ['customers:read'], prefix: key.slice(0, 12), last4: key.slice(-4) });
    restricted = { id: created!.id, key };

    // The list shows it by prefix and last4 only.
    const row = keyRow(restricted.id);
    await expect(row.textContent()).resolves.toMatch(/CRM reader[\s\S]*test[\s\S]*customers:read/);
    await expect(row.locator('code').textContent()).resolves.toBe(`${key.slice(0, 12)}…${key.slice(-4)}`);
    await expect(row.textContent()).resolves.toContain('ACTIVE');

    // The secret works against the API from here, with exactly its permission.
    expectOk(await api.get(key, '/v1/customers/list'));
    expectError(await api.post(key, '/v1/customers/create', { name: 'Cliente', email: 'cliente@example.com' }), 403, 'FORBIDDEN');
    expectError(await api.get(key, '/v1/products/list'), 403, 'FORBIDDEN');

    await page.reload();
    await record('api-keys-reloaded');
    await expect(page.getByTestId('new-key').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(key);
    // Last use is now shown.
    await expect(keyRow(restricted.id).locator('td').nth(5).textContent()).resolves.toMatch(/UTC/);
  });

  it('rolls the key with a 1 hour grace period: a new secret is shown, and both old and new work', async () => {
    await visit('/dashboard/api-keys');
    const row = keyRow(restricted.id);
    await row.getByLabel('Old key keeps working').selectOption({ label: '1 hour' });
    const startedAt = Date.now();
    await click(row.getByRole('button', { name: 'Roll' }));
    await record('api-key-rolled');

    await expect(page.getByRole('status').textContent()).resolves.toContain('rolled');
    await expect(page.getByTestId('new-key').textContent()).resolves.toContain('you will not see this key again');
    const key = await newKeyValue();
    expect(key).toMatch(/^sk_test_/);
    expect(key).not.toBe(restricted.key);
    secrets.set(key, 'api-key-rolled');

    const keys = await listKeys();
    const fresh = keys.find((entry) => entry.last4 === key.slice(-4) && entry.id !== restricted.id);
    expect(fresh).toMatchObject({ name: 'CRM reader', mode: 'test', permissions: ['customers:read'], expiresAt: null, revokedAt: null });
    rolled = { id: fresh!.id, key };

    // The old key now ends in about an hour.
    const old = await keyById(restricted.id);
    expect(old.revokedAt).toBeNull();
    const endsIn = Date.parse(old.expiresAt ?? '') - startedAt;
    expect(endsIn).toBeGreaterThan(3500_000);
    expect(endsIn).toBeLessThanOrEqual(3600_000 + 1000);

    expectOk(await api.get(restricted.key, '/v1/customers/list'));
    expectOk(await api.get(rolled.key, '/v1/customers/list'));
    expectError(await api.post(rolled.key, '/v1/customers/create', { name: 'Cliente', email: 'cliente@example.com' }), 403, 'FORBIDDEN');
  });

  it('revokes the new key through a confirmation page: the API answers 401 for it', async () => {
    await visit('/dashboard/api-keys');
    await click(keyRow(rolled.id).getByRole('link', { name: 'Revoke…' }));
    await record('revoke-confirm');

    expect(path()).toBe('/dashboard/api-keys/revoke');
    const text = await page.locator('main').textContent();
    expect(text).toContain('CRM reader');
    expect(text).toContain(`${rolled.key.slice(0, 12)}…${rolled.key.slice(-4)}`);
    expect(text).toContain('stop working');
    // Only the confirmation revokes: the key still works while the page is shown.
    expectOk(await api.get(rolled.key, '/v1/customers/list'));

    await click(page.getByRole('button', { name: 'Yes, revoke this key' }));
    await record('api-key-revoked');
    expect(path()).toBe('/dashboard/api-keys');
    await expect(page.getByRole('status').textContent()).resolves.toContain('revoked');
    await expect(keyRow(rolled.id).textContent()).resolves.toContain('REVOKED');
    await expect(keyRow(rolled.id).getByRole('button', { name: 'Roll' }).count()).resolves.toBe(0);

    expectError(await api.get(rolled.key, '/v1/customers/list'), 401, 'UNAUTHENTICATED');
    expect((await keyById(rolled.id)).revokedAt).not.toBeNull();
    // The old key is still inside its grace period.
    expectOk(await api.get(restricted.key, '/v1/customers/list'));
  });

  it('refuses forged form posts without a valid CSRF token with 403 and changes nothing', async () => {
    const session = (await sessionCookie()).value;
    const cookies = await browserCookies();
    expect(cookies).toContain('csrf=');
    const keysBefore = await keyStates();
    const form = (route: string, fields: Record<string, string>) =>
      app.http().post(route).set('Cookie', cookies).type('form').send(fields).redirects(0);

    // create: no token, then a made-up token
    const forged: Array<Record<string, string>> = [
      { name: 'forged', mode: 'test', permissions: '*' },
      { name: 'forged', mode: 'test', permissions: '*', _csrf: 'not-a-token' },
    ];
    for (const fields of forged) {
      const refused = await form('/dashboard/api-keys/create', fields);
      expect(refused.status).toBe(403);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.text).toContain('security token');
    }
    expect(await keyStates()).toEqual(keysBefore);

    // logout: the session goes on working
    expect((await form('/logout', {})).status).toBe(403);
    expectOk(await api.get(session, '/v1/auth/me'));

    // revoke: the key is not revoked
    expect((await form('/dashboard/api-keys/revoke', { id: restricted.id })).status).toBe(403);
    expect((await keyById(restricted.id)).revokedAt).toBeNull();
    expectOk(await api.get(restricted.key, '/v1/customers/list'));

    // roll: no new key
    expect((await form('/dashboard/api-keys/roll', { id: restricted.id, expiresInSeconds: '0' })).status).toBe(403);
    expect(await keyStates()).toEqual(keysBefore);

    // A token from another visitor (no session) is not valid for this session either.
    const stranger = await app.http().get('/login');
    const strangerToken = /name="_csrf" value="([^"]+)"/.exec(stranger.text)?.[1] ?? '';
    expect(strangerToken).not.toBe('');
    expect((await form('/dashboard/api-keys/revoke', { id: restricted.id, _csrf: strangerToken })).status).toBe(403);
    expect((await keyById(restricted.id)).revokedAt).toBeNull();

    // Control: the very same post with the page's own token is accepted.
    const own = await app.http().get('/dashboard/api-keys').set('Cookie', cookies);
    expect(own.status).toBe(200);
    const token = /name="_csrf" value="([^"]+)"/.exec(own.text)?.[1] ?? '';
    const accepted = await form('/dashboard/api-keys/create', { name: 'control', mode: 'test', permissions: 'customers:read', _csrf: token });
    expect([accepted.status, accepted.headers.location]).toEqual([303, '/dashboard/api-keys']);
    expect(await keyStates()).toHaveLength(keysBefore.length + 1);

    // The browser is still logged in.
    await visit('/dashboard');
    expect(path()).toBe('/dashboard');
  });

  // -------------------------------------------------------------------------------------------------------------
  // payments, overview, webhooks
  // -------------------------------------------------------------------------------------------------------------

  let paid = { id: '', amount: 0, netAmount: 0 };
  let pending = { id: '' };

  it('payments page: the status filter and links to /pay/<id>', async () => {
    pending = await checkoutOf(2500, 'Caneca');
    const created = await checkoutOf(149_900, 'Bicicleta');
    const payment = expectOk(await api.post(defaultKey, '/v1/checkouts/simulate-payment', { id: created.id, method: 'PIX' }));
    expect(payment.status).toBe('PAID');
    paid = { id: created.id, amount: payment.amount, netAmount: payment.netAmount };

    await visit('/dashboard/payments');
    const all = page.getByTestId('charges');
    await expect(all.textContent()).resolves.toContain(pending.id);
    await expect(all.textContent()).resolves.toContain(paid.id);

    await page.getByLabel('Status').selectOption('PAID');
    await click(page.getByRole('button', { name: 'Filter' }));
    await record('payments');
    expect(search()).toContain('status=PAID');
    await expect(page.getByLabel('Status').inputValue()).resolves.toBe('PAID');
    const filtered = page.getByTestId('charges');
    await expect(filtered.textContent()).resolves.not.toContain(pending.id);
    const link = filtered.getByRole('link', { name: paid.id });
    await expect(link.getAttribute('href')).resolves.toBe(`/pay/${paid.id}`);
    const row = filtered.locator('tr', { has: page.getByRole('link', { name: paid.id }) });
    await expect(row.textContent()).resolves.toMatch(/PAID[\s\S]*PIX[\s\S]*R\$ 1\.499,00/);

    await page.getByLabel('Status').selectOption('PENDING');
    await click(page.getByRole('button', { name: 'Filter' }));
    await record('payments-pending');
    await expect(page.getByTestId('charges').textContent()).resolves.toContain(pending.id);
    await expect(page.getByTestId('charges').textContent()).resolves.not.toContain(paid.id);

    // The link opens the hosted page, which shows the receipt.
    await visit(`/dashboard/payments?status=PAID`);
    await click(page.getByRole('link', { name: paid.id }));
    await record('payments-pay-page');
    expect(path()).toBe(`/pay/${paid.id}`);
    await expect(page.getByTestId('receipt').textContent()).resolves.toContain('R$ 1.499,00');
  });

  it('overview: balances per mode and recent charges', async () => {
    await visit('/dashboard');
    await record('dashboard');
    expect(paid.netAmount).toBe(149_900 - 80);
    await expect(page.getByTestId('balance-test').textContent()).resolves.toContain('R$ 1.498,20');
    await expect(page.getByTestId('balance-live').textContent()).resolves.toContain('R$ 0,00');
    const recent = page.getByTestId('charges').first();
    await expect(recent.textContent()).resolves.toContain(paid.id);
    await expect(recent.textContent()).resolves.toContain(pending.id);
    await expect(recent.getByRole('link', { name: paid.id }).getAttribute('href')).resolves.toBe(`/pay/${paid.id}`);
  });

  it('webhooks page: endpoints, deliveries with status and attempts, and Resend makes a new delivery', async () => {
    const endpoint = expectOk(
      await api.post(defaultKey, '/v1/webhooks/create', { url: receiverUrl, events: ['checkout.paid'], description: 'Order system' }),
      201,
    );
    webhookSecret = endpoint.secret;
    expect(webhookSecret).toMatch(/^whsec_/);
    const checkout = await checkoutOf(1000, 'Adesivo');
    expectOk(await api.post(defaultKey, '/v1/checkouts/simulate-payment', { id: checkout.id }));

    const deliveries = () =>
      api.get(defaultKey, '/v1/webhooks/deliveries', { id: endpoint.id }).then((response) => expectOk(response).items as Delivery[]);
    const [failed] = await waitFor(deliveries, (items) => items.length === 1 && items[0].status === 'FAILED', 'a FAILED delivery');
    expect(failed).toMatchObject({ eventType: 'checkout.paid', status: 'FAILED' });
    expect(failed.attempts).toHaveLength(2);
    expect(received).toBe(2);

    await visit('/dashboard/webhooks');
    await record('webhooks');
    const endpoints = page.getByTestId('endpoints');
    await expect(endpoints.textContent()).resolves.toContain(receiverUrl);
    await expect(endpoints.textContent()).resolves.toContain('Order system');
    await expect(endpoints.textContent()).resolves.toContain('checkout.paid');
    const row = page.getByTestId('deliveries').locator('tbody tr');
    await expect(row.count()).resolves.toBe(1);
    const cells = await row.locator('td').allTextContents();
    expect(cells[0]).toContain('checkout.paid');
    expect(cells[1].trim()).toBe('FAILED');
    expect(cells[2].trim()).toBe('2');
    expect(cells[3].trim()).toBe('HTTP 500');

    await click(row.getByRole('button', { name: 'Resend' }));
    await record('webhooks-resent');
    expect(path()).toBe('/dashboard/webhooks');
    await expect(page.getByRole('status').textContent()).resolves.toContain('queued again');
    const after = await waitFor(deliveries, (items) => items.length === 2, 'a second delivery');
    const again = after.find((delivery) => delivery.id !== failed.id)!;
    expect(again.eventType).toBe('checkout.paid');
    await waitFor(() => Promise.resolve(received), (count) => count >= 3, 'the resent delivery to reach the receiver');

    await page.reload();
    await record('webhooks-after-resend');
    await expect(page.getByTestId('deliveries').locator('tbody tr').count()).resolves.toBe(2);
  });

  it('the dashboard is readable at phone width (390×844)', async () => {
    const phone = await browser.newPage();
    try {
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto('/dashboard');
      expect(new URL(phone.url()).pathname).toBe('/dashboard');
      await browser.screenshot(phone, 'dashboard-phone');
      snapshots.push({ name: 'dashboard-phone', url: phone.url(), html: await phone.content() });
      // No sideways scrolling of the page itself (wide tables scroll inside their own box).
      const widths = await phone.evaluate<{ page: number; viewport: number }>(
        '({ page: document.documentElement.scrollWidth, viewport: window.innerWidth })',
      );
      expect(widths.page).toBeLessThanOrEqual(widths.viewport);
      await phone.goto('/dashboard/api-keys');
      await browser.screenshot(phone, 'api-keys-phone');
      snapshots.push({ name: 'api-keys-phone', url: phone.url(), html: await phone.content() });
      const keysWidth = await phone.evaluate<number>('document.documentElement.scrollWidth');
      expect(keysWidth).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });

  it('no page ever showed a secret except the page right after its creation', () => {
    expect(secrets.size).toBe(3);
    expect(snapshots.length).toBeGreaterThan(20);
    const leaks: string[] = [];
    for (const snapshot of snapshots) {
      for (const [secret, allowedOn] of secrets) {
        const shown = snapshot.html.includes(secret);
        if (shown !== (snapshot.name === allowedOn)) leaks.push(`${snapshot.name}: ${shown ? 'shows' : 'misses'} ${secret.slice(0, 12)}…`);
      }
      if (snapshot.html.includes(webhookSecret) || snapshot.html.includes('whsec_')) leaks.push(`${snapshot.name}: webhook secret`);
      // Any other full key value (one the test does not know about) would also be a leak.
      const other = SECRET_PATTERN.exec(snapshot.html)?.[0];
      if (other !== undefined && !secrets.has(other)) leaks.push(`${snapshot.name}: unknown key ${other.slice(0, 12)}…`);
    }
    expect(leaks).toEqual([]);
  });
});
