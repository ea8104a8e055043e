import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page, Response as PageResponse } from 'playwright-core';
import type { Response } from 'supertest';
import { launchBrowser, TestBrowser } from '../support/browser';
import { bearer, uniqueEmail } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The hosted pay page /pay/<id> in a real browser — API.md §14 (hosted pages), §9.1–§9.2 (checkouts, payment links),
 * §9.3 (Pix BR Code), §10 (sandbox, test cards), issue 4. One app and one headless Chromium for the file; every
 * charge is created through the API and every outcome is checked through the API (and the database for the card's
 * last 4 digits, which the checkout object does not carry).
 */
jest.setTimeout(120_000);

const STORE_NAME = 'Bicicletaria Aro 29';

interface Checkout {
  id: string;
  url: string;
  status: string;
  amount: number;
  method: string | null;
  paymentLinkId: string | null;
  completionUrl: string | null;
}

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF), as the BR Code's field 63 uses. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Top-level EMV fields (id → value) of a BR Code. */
function emvFields(code: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < code.length) {
    const id = code.slice(at, at + 2);
    const length = Number(code.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(length)) throw new Error(`bad EMV field at ${at}`);
    fields.set(id, code.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  if (at !== code.length) throw new Error('EMV fields overrun the code');
  return fields;
}

describe('hosted pay page in the browser (API.md §14, issue 4)', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let page: Page;
  let store: Server;
  let storeUrl = '';
  let testKey = '';
  let liveKey = '';

  beforeAll(async () => {
    // The merchant's own site, where completionUrl sends the buyer.
    store = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Thanks</title><h1>Back at the store</h1><p>${request.url}</p>`);
    });
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    storeUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
    app = await startTestApp();
    browser = await launchBrowser(app.url);
    page = await browser.newPage();

    const registered = await app
      .http()
      .post('/v1/auth/register')
      .send({ name: 'Carla Lima', email: uniqueEmail('carla'), password: 'correct horse battery', storeName: STORE_NAME });
    expect(registered.status).toBe(201);
    testKey = registered.body.data.apiKey.key;
    const live = await app
      .http()
      .post('/v1/api-keys/create')
      .set(bearer(registered.body.data.session.token))
      .send({ name: 'live', mode: 'live', permissions: ['*'] });
    expect(live.status).toBe(201);
    liveKey = live.body.data.key;
    expect(liveKey).toMatch(/^sk_live_/);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise<void>((resolve) => (store ? store.close(() => resolve()) : resolve()));
  });

  // -------------------------------------------------------------------------------------------------------------
  // helpers
  // -------------------------------------------------------------------------------------------------------------

  const expectOk = (response: Response, status = 200) => {
    expect({ status: response.status, error: response.body?.error ?? null }).toEqual({ status, error: null });
    return response.body.data;
  };
  const post = (key: string, route: string, body: Record<string, unknown>) => app.http().post(route).set(bearer(key)).send(body);
  const getCheckout = async (key: string, id: string): Promise<Checkout> =>
    expectOk(await app.http().get('/v1/checkouts/get').query({ id }).set(bearer(key)));

  let sku = 0;
  const product = async (key: string, name: string, price: number): Promise<string> => {
    sku += 1;
    return expectOk(await post(key, '/v1/products/create', { externalId: `sku-${sku}`, name, price }), 201).id;
  };
  const checkout = async (key: string, body: Record<string, unknown> = {}): Promise<Checkout> => {
    const items = body.items ?? [{ productId: await product(key, 'Câmara de ar', 3990), quantity: 1 }];
    return expectOk(await post(key, '/v1/checkouts/create', { methods: ['PIX', 'CARD'], ...body, items }), 201);
  };

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
  const click = (locator: Locator) => navigation(() => locator.click());
  const open = async (path: string): Promise<PageResponse> => {
    const response = await page.goto(path);
    if (response === null) throw new Error(`no response for ${path}`);
    return response;
  };
  const text = async () => (await page.locator('main').textContent()) ?? '';
  const payByCard = async (number: string) => {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Name on card').fill('CARLA LIMA');
    await page.getByLabel('Month').fill('12');
    await page.getByLabel('Year').fill(String(new Date().getUTCFullYear() + 2));
    await page.getByLabel('CVV').fill('123');
    return click(page.getByRole('button', { name: /^Pay R\$/ }));
  };
  const counts = async () => ({
    pix: await page.locator('#pix-code').count(),
    card: await page.locator('form[action$="/card"]').count(),
    simulate: await page.getByRole('button', { name: 'Simulate payment' }).count(),
  });

  // -------------------------------------------------------------------------------------------------------------

  let main: Checkout;

  it('shows store, items, amount in R$, the Pix QR and a valid copy-paste BR Code, and a card form', async () => {
    const bike = await product(testKey, 'Bicicleta urbana', 125_000);
    const bell = await product(testKey, 'Campainha', 4_990);
    main = await checkout(testKey, {
      items: [
        { productId: bike, quantity: 1 },
        { productId: bell, quantity: 2 },
      ],
    });
    expect(main.amount).toBe(134_980);
    expect(main.url).toMatch(new RegExp(`/pay/${main.id}$`));

    const response = await open(`/pay/${main.id}`);
    await browser.screenshot(page, 'pay-page-pending');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-security-policy']).toBeDefined();
    const shown = await text();
    expect(shown).toContain(STORE_NAME);
    expect(shown).toContain('Bicicleta urbana');
    expect(shown).toContain('Campainha');
    await expect(page.getByTestId('amount').textContent()).resolves.toBe('R$ 1.349,80');
    await expect(page.getByTestId('status').textContent()).resolves.toBe('PENDING');
    // Per-item lines: 2 × R$ 49,90.
    const bellRow = page.locator('tr', { hasText: 'Campainha' });
    await expect(bellRow.locator('td').allTextContents()).resolves.toEqual(['Campainha', '2', 'R$ 99,80']);

    // Pix QR: a PNG data URL that the browser really decoded.
    const qr = page.getByAltText('Pix QR code');
    await expect(qr.getAttribute('src')).resolves.toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    // (Browser-side code as strings: the project's TypeScript has no DOM types.)
    const decoded = await page.evaluate<{ complete: boolean; width: number }>(
      "(() => { const image = document.querySelector('img.qr'); return { complete: image.complete, width: image.naturalWidth }; })()",
    );
    expect(decoded.complete).toBe(true);
    expect(decoded.width).toBeGreaterThan(100);

    // Copy-paste code: an EMV BR Code for this amount with a correct CRC.
    const code = await page.getByLabel('Pix copia e cola').inputValue();
    expect(code.startsWith('000201')).toBe(true);
    expect(code).toContain('br.gov.bcb.pix');
    expect(code).toMatch(/6304[0-9A-F]{4}$/);
    expect(code.slice(-4)).toBe(crc16(code.slice(0, -4)));
    const fields = emvFields(code);
    expect(fields.get('53')).toBe('986');
    expect(fields.get('54')).toBe('1349.80');
    expect(fields.get('58')).toBe('BR');

    // Card form with labels, and the sandbox button.
    for (const label of ['Card number', 'Name on card', 'Month', 'Year', 'CVV']) await expect(page.getByLabel(label).count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Pay R$ 1.349,80' }).count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Simulate payment' }).count()).resolves.toBe(1);
  });

  it('a declined test card shows the decline and leaves the checkout PENDING', async () => {
    await open(`/pay/${main.id}`);
    const declined = await payByCard('4000000000000002');
    await browser.screenshot(page, 'pay-page-declined');
    expect(declined.status()).toBe(402);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('declined');
    await expect(page.getByTestId('status').textContent()).resolves.toBe('PENDING');
    expect((await getCheckout(testKey, main.id)).status).toBe('PENDING');
    // The buyer can try again: the forms are still there.
    expect(await counts()).toEqual({ pix: 1, card: 1, simulate: 1 });
  });

  it('4242 4242 4242 4242 pays: receipt shown, API says PAID by CARD, card last4 4242', async () => {
    await open(`/pay/${main.id}`);
    const paid = await payByCard('4242 4242 4242 4242');
    await browser.screenshot(page, 'pay-page-receipt');
    expect(paid.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/pay/${main.id}`);
    const receipt = page.getByTestId('receipt');
    await expect(receipt.textContent()).resolves.toMatch(/Payment received[\s\S]*R\$ 1\.349,80 by CARD/);
    await expect(page.getByTestId('status').textContent()).resolves.toBe('PAID');
    expect(await counts()).toEqual({ pix: 0, card: 0, simulate: 0 });

    const after = await getCheckout(testKey, main.id);
    expect({ status: after.status, method: after.method }).toEqual({ status: 'PAID', method: 'CARD' });
    const row = await app.database.db.selectFrom('charges').select(['card_last4', 'card_brand']).where('id', '=', main.id).executeTakeFirstOrThrow();
    expect(row.card_last4).toBe('4242');
    expect(String(row.card_brand).toLowerCase()).toBe('visa');
    // A reload shows the receipt again and pays nothing more.
    await page.reload();
    await expect(page.getByTestId('receipt').count()).resolves.toBe(1);
    const events = await app.database.db.selectFrom('events').select('id').where('type', '=', 'checkout.paid').where('data', 'like', `%${main.id}%`).execute();
    expect(events).toHaveLength(1);
  });

  it('the sandbox "Simulate payment" button really pays the checkout', async () => {
    const other = await checkout(testKey);
    await open(`/pay/${other.id}`);
    await page.getByLabel('Method').selectOption('PIX');
    await click(page.getByRole('button', { name: 'Simulate payment' }));
    await browser.screenshot(page, 'pay-page-simulated');
    await expect(page.getByTestId('receipt').textContent()).resolves.toContain('by PIX');
    const after = await getCheckout(testKey, other.id);
    expect({ status: after.status, method: after.method }).toEqual({ status: 'PAID', method: 'PIX' });
  });

  it('with a completionUrl the buyer lands on the store after paying (simulate and card), and on a later visit', async () => {
    const completionUrl = `${storeUrl}/thanks?order=42`;
    const simulated = await checkout(testKey, { completionUrl });
    expect(simulated.completionUrl).toBe(completionUrl);
    await open(`/pay/${simulated.id}`);
    await click(page.getByRole('button', { name: 'Simulate payment' }));
    await browser.screenshot(page, 'pay-page-completion');
    expect(page.url()).toBe(completionUrl);
    await expect(page.locator('h1').textContent()).resolves.toBe('Back at the store');
    expect((await getCheckout(testKey, simulated.id)).status).toBe('PAID');

    // Opening the paid checkout's page again also goes to the store.
    await open(`/pay/${simulated.id}`);
    expect(page.url()).toBe(completionUrl);

    const byCard = await checkout(testKey, { completionUrl });
    await open(`/pay/${byCard.id}`);
    await payByCard('4242424242424242');
    expect(page.url()).toBe(completionUrl);
    expect((await getCheckout(testKey, byCard.id)).status).toBe('PAID');
  });

  it('a payment link: "Continue to payment" opens a new checkout; paying it counts one payment on the link', async () => {
    const item = await product(testKey, 'Revisão completa', 18_000);
    const link = expectOk(await post(testKey, '/v1/payment-links/create', { name: 'Revisão', items: [{ productId: item, quantity: 1 }] }), 201);
    expect(link.id).toMatch(/^plink_/);

    const shown = await open(`/pay/${link.id}`);
    await browser.screenshot(page, 'pay-link');
    expect(shown.status()).toBe(200);
    expect(await text()).toContain(STORE_NAME);
    await expect(page.locator('h1').textContent()).resolves.toBe('Revisão');
    expect(await text()).toContain('Revisão completa');
    await expect(page.getByTestId('amount').textContent()).resolves.toBe('R$ 180,00');

    await click(page.getByRole('button', { name: 'Continue to payment' }));
    await browser.screenshot(page, 'pay-link-checkout');
    const checkoutId = /^\/pay\/(bill_[0-9A-Z]{26})$/.exec(new URL(page.url()).pathname)?.[1];
    expect(checkoutId).toBeDefined();
    const started = await getCheckout(testKey, checkoutId!);
    expect({ status: started.status, paymentLinkId: started.paymentLinkId, amount: started.amount }).toEqual({
      status: 'PENDING',
      paymentLinkId: link.id,
      amount: 18_000,
    });
    await expect(page.getByTestId('amount').textContent()).resolves.toBe('R$ 180,00');

    await click(page.getByRole('button', { name: 'Simulate payment' }));
    await expect(page.getByTestId('receipt').count()).resolves.toBe(1);
    expect((await getCheckout(testKey, checkoutId!)).status).toBe('PAID');
    const after = expectOk(await app.http().get('/v1/payment-links/get').query({ id: link.id }).set(bearer(testKey)));
    expect(after.paymentsCount).toBe(1);
  });

  it('an expired checkout says so and offers no way to pay', async () => {
    const expiring = await checkout(testKey);
    expect(expectOk(await post(testKey, '/v1/checkouts/simulate-expiration', { id: expiring.id })).status).toBe('EXPIRED');
    await open(`/pay/${expiring.id}`);
    await browser.screenshot(page, 'pay-page-expired');
    expect(await text()).toContain('This checkout has expired');
    await expect(page.getByTestId('status').textContent()).resolves.toBe('EXPIRED');
    expect(await counts()).toEqual({ pix: 0, card: 0, simulate: 0 });
    await expect(page.getByTestId('receipt').count()).resolves.toBe(0);
    await expect(page.locator('form').count()).resolves.toBe(0);
  });

  it('a live checkout shows the order but no pay forms: there is no payment provider in live mode', async () => {
    const live = await checkout(liveKey);
    expect(live.url).toMatch(new RegExp(`/pay/${live.id}$`));
    const response = await open(`/pay/${live.id}`);
    await browser.screenshot(page, 'pay-page-live');
    expect(response.status()).toBe(200);
    expect(await text()).toContain(STORE_NAME);
    await expect(page.getByRole('button', { name: 'Simulate payment' }).count()).resolves.toBe(0);
    expect(await text()).not.toContain('Sandbox');
    await expect(page.locator('[data-testid=no-provider]').count()).resolves.toBe(1);
    await expect(page.locator('#pix-code').count()).resolves.toBe(0);
    await expect(page.locator('form[action$="/card"]').count()).resolves.toBe(0);
    expect((await getCheckout(liveKey, live.id)).status).toBe('PENDING');
  });

  it('the pay page is readable at phone width', async () => {
    const fresh = await checkout(testKey);
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await open(`/pay/${fresh.id}`);
      await browser.screenshot(page, 'pay-page-phone');
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
