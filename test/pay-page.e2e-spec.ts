import type { Response } from 'supertest';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The hosted pay page over plain HTTP — API.md §14 (hosted pages: public, CSRF-protected forms), §10 (sandbox only),
 * issue 4. What a browser does is replayed by hand: GET the page, keep its `csrf` cookie and `_csrf` field, POST the
 * form. Every outcome is read back through the API (`/v1/checkouts/get`) and the `events` / `ledger_entries` tables.
 * The browser suite (test/browser/pay-page.browser-spec.ts) covers the same page in Chromium.
 */
jest.setTimeout(60_000);

const MISSING_CHECKOUT = 'bill_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const MISSING_LINK = 'plink_01JD2Z3M4N5P6Q7R8S9T0V1W2X';

interface PageForm {
  cookie: string;
  token: string;
  html: string;
}

describe('hosted pay page over HTTP (API.md §14)', () => {
  let app: TestApp;
  let merchant: RegisteredMerchant;
  let liveKey: string;

  beforeAll(async () => {
    app = await startTestApp();
    merchant = await registerMerchant(app, 'Loja do Pedro');
    liveKey = (await createKey(app, merchant.session, { name: 'live', mode: 'live', permissions: ['*'] })).key;
  });

  afterAll(async () => {
    await app?.close();
  });

  const http = () => app.http();
  const db = () => app.database.db;
  const expectOk = (response: Response, status = 200) => {
    expect({ status: response.status, error: response.body?.error ?? null }).toEqual({ status, error: null });
    return response.body.data;
  };

  let sku = 0;
  const checkout = async (key: string, fields: Record<string, unknown> = {}) => {
    sku += 1;
    const product = expectOk(await http().post('/v1/products/create').set(bearer(key)).send({ externalId: `sku-${sku}`, name: 'Caderno', price: 2590 }), 201);
    return expectOk(
      await http()
        .post('/v1/checkouts/create')
        .set(bearer(key))
        .send({ items: [{ productId: product.id, quantity: 1 }], methods: ['PIX', 'CARD'], ...fields }),
      201,
    ) as { id: string; status: string };
  };
  const statusOf = async (key: string, id: string): Promise<string> =>
    expectOk(await http().get('/v1/checkouts/get').query({ id }).set(bearer(key))).status;
  const paidEvents = (id: string) => db().selectFrom('events').select('id').where('type', '=', 'checkout.paid').where('data', 'like', `%${id}%`).execute();
  const ledgerRows = (id: string) => db().selectFrom('ledger_entries').select(['amount', 'bucket']).where('source_id', '=', id).execute();

  /** GET /pay/<id> as a browser would: the page, its csrf cookie and the form's hidden token. */
  const openPage = async (id: string): Promise<PageForm> => {
    const response = await http().get(`/pay/${id}`);
    expect(response.status).toBe(200);
    const setCookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    const csrf = setCookies.find((cookie) => cookie.startsWith('csrf='));
    expect(csrf).toBeDefined();
    const token = /<input type="hidden" name="_csrf" value="([^"]+)">/.exec(response.text)?.[1];
    expect(token).toBeDefined();
    return { cookie: csrf!.split(';')[0], token: token!, html: response.text };
  };
  const postForm = (path: string, fields: Record<string, string>, cookie?: string) => {
    const request = http().post(path).type('form').redirects(0);
    if (cookie !== undefined) request.set('Cookie', cookie);
    return request.send(fields);
  };

  it('an unknown id answers a 404 HTML page', async () => {
    for (const id of [MISSING_CHECKOUT, MISSING_LINK, 'nonsense', 'cust_01JD2Z3M4N5P6Q7R8S9T0V1W2X']) {
      const response = await http().get(`/pay/${id}`);
      expect([id, response.status]).toEqual([id, 404]);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.text).toContain('This payment page does not exist.');
      expect(response.text).not.toContain('"success"');
    }
  });

  it('a checkout page is public HTML with a hidden _csrf field and an HttpOnly csrf cookie', async () => {
    const { id } = await checkout(merchant.testKey);
    const response = await http().get(`/pay/${id}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('Loja do Pedro');
    expect(response.text).toContain('R$ 25,90');
    expect(response.text).toContain(`action="/pay/${id}/simulate"`);
    expect(response.text).toContain(`action="/pay/${id}/card"`);
    // Every form of the page carries the token.
    const forms = response.text.match(/<form method="post"/g) ?? [];
    const tokens = response.text.match(/<input type="hidden" name="_csrf" value="[^"]+">/g) ?? [];
    expect(forms.length).toBe(2);
    expect(tokens.length).toBe(forms.length);
    const csrf = ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith('csrf='));
    expect(csrf).toBeDefined();
    expect(csrf).toMatch(/; HttpOnly/i);
    expect(csrf).toMatch(/; SameSite=Lax/i);
    expect(csrf).toMatch(/; Path=\//i);
    expect(csrf).not.toMatch(/; Secure/i);
    expect(response.headers['content-security-policy']).toContain("form-action 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('POST /pay/<id>/simulate without a valid token is refused with 403 and pays nothing', async () => {
    const { id } = await checkout(merchant.testKey);
    const { cookie, token } = await openPage(id);
    const other = await openPage((await checkout(merchant.testKey)).id);

    const attempts: Array<[string, Record<string, string>, string | undefined]> = [
      ['no cookie, no token', { method: 'PIX' }, undefined],
      ['cookie, no token', { method: 'PIX' }, cookie],
      ['cookie, made-up token', { method: 'PIX', _csrf: 'forged' }, cookie],
      ['token without its cookie', { method: 'PIX', _csrf: token }, undefined],
      ['token with another visitor cookie', { method: 'PIX', _csrf: token }, other.cookie],
    ];
    for (const [label, fields, withCookie] of attempts) {
      const refused = await postForm(`/pay/${id}/simulate`, fields, withCookie);
      expect([label, refused.status]).toEqual([label, 403]);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.text).toContain('security token');
    }
    // The card form is protected the same way.
    const card = await postForm(`/pay/${id}/card`, { number: '4242424242424242', holderName: 'PEDRO', expMonth: '12', expYear: '2099', cvv: '123' }, cookie);
    expect(card.status).toBe(403);

    expect(await statusOf(merchant.testKey, id)).toBe('PENDING');
    expect(await paidEvents(id)).toHaveLength(0);
    expect(await ledgerRows(id)).toHaveLength(0);
  });

  it('POST /pay/<id>/simulate with the page cookie and token pays the checkout and redirects (303) to the page', async () => {
    const { id } = await checkout(merchant.testKey);
    const { cookie, token } = await openPage(id);
    const paid = await postForm(`/pay/${id}/simulate`, { method: 'CARD', _csrf: token }, cookie);
    expect([paid.status, paid.headers.location]).toEqual([303, `/pay/${id}`]);

    const after = expectOk(await http().get('/v1/checkouts/get').query({ id }).set(bearer(merchant.testKey)));
    expect({ status: after.status, method: after.method }).toEqual({ status: 'PAID', method: 'CARD' });
    const receipt = await http().get(`/pay/${id}`);
    expect(receipt.status).toBe(200);
    expect(receipt.text).toContain('data-testid="receipt"');
    expect(receipt.text).not.toContain(`action="/pay/${id}/simulate"`);
  });

  it('with a completionUrl, paying redirects (303) there, and the page allows that form redirect in its CSP', async () => {
    const completionUrl = 'https://shop.example.com/obrigado?pedido=7';
    const { id } = await checkout(merchant.testKey, { completionUrl });
    const page = await http().get(`/pay/${id}`);
    expect(page.status).toBe(200);
    // Browsers apply form-action to the redirect after a form post: without the store's origin they block it.
    const policy = page.headers['content-security-policy'] as string;
    expect(policy).toContain("form-action 'self' https://shop.example.com;");
    expect(policy).toContain("default-src 'self'");
    // A page without completionUrl allows only itself.
    const plain = await http().get(`/pay/${(await checkout(merchant.testKey)).id}`);
    expect(plain.headers['content-security-policy']).toContain("form-action 'self';");
    // Served over http (PUBLIC_BASE_URL http://…), the pages must not ask browsers to upgrade their own requests.
    expect(policy).not.toContain('upgrade-insecure-requests');

    const { cookie, token } = await openPage(id);
    const paid = await postForm(`/pay/${id}/simulate`, { _csrf: token }, cookie);
    expect([paid.status, paid.headers.location]).toEqual([303, completionUrl]);
    expect(await statusOf(merchant.testKey, id)).toBe('PAID');
    // Later visits of the paid checkout go to the store too.
    const later = await http().get(`/pay/${id}`).redirects(0);
    expect([later.status, later.headers.location]).toEqual([302, completionUrl]);
  });

  it('a live checkout cannot be simulated from its page: 403 SANDBOX_ONLY shown on the page, still PENDING', async () => {
    const { id } = await checkout(liveKey);
    const livePage = await app.http().get(`/pay/${id}`).expect(200);
    expect(livePage.text).not.toContain('Simulate payment');
    expect(livePage.text).not.toContain(`action="/pay/${id}/simulate"`);
    expect(livePage.text).toContain('data-testid="no-provider"');

    // A hand-made post of the sandbox form, with a valid token taken from a sandbox checkout's page.
    const { cookie, token } = await openPage((await checkout(merchant.testKey)).id);
    const refused = await postForm(`/pay/${id}/simulate`, { method: 'PIX', _csrf: token }, cookie);
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain('Simulations are only available with a sandbox');
    expect(refused.text).not.toContain('Simulate payment');

    expect(await statusOf(liveKey, id)).toBe('PENDING');
    expect(await paidEvents(id)).toHaveLength(0);
    expect(await ledgerRows(id)).toHaveLength(0);
  });

  it('reloading after paying, or posting the form again, never pays twice', async () => {
    const { id } = await checkout(merchant.testKey);
    const { cookie, token } = await openPage(id);
    expect((await postForm(`/pay/${id}/simulate`, { method: 'PIX', _csrf: token }, cookie)).status).toBe(303);

    // Reloads (GET after the redirect).
    for (let reload = 0; reload < 3; reload += 1) {
      const page = await http().get(`/pay/${id}`).set('Cookie', cookie);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Payment received');
    }
    // The browser's "resubmit the form": refused, the page says why.
    const again = await postForm(`/pay/${id}/simulate`, { method: 'PIX', _csrf: token }, cookie);
    expect(again.status).toBe(409);
    expect(again.text).toContain('role="alert"');
    const card = await postForm(
      `/pay/${id}/card`,
      { number: '4242424242424242', holderName: 'PEDRO', expMonth: '12', expYear: '2099', cvv: '123', _csrf: token },
      cookie,
    );
    expect(card.status).toBe(409);

    expect(await statusOf(merchant.testKey, id)).toBe('PAID');
    expect(await paidEvents(id)).toHaveLength(1);
    const credits = await ledgerRows(id);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toEqual({ amount: 2590 - 80, bucket: 'available' });
  });

  it('a payment link page starts a checkout only through its CSRF-protected form', async () => {
    const product = expectOk(await http().post('/v1/products/create').set(bearer(merchant.testKey)).send({ externalId: 'link-sku', name: 'Agenda', price: 4500 }), 201);
    const link = expectOk(
      await http().post('/v1/payment-links/create').set(bearer(merchant.testKey)).send({ name: 'Agenda 2027', items: [{ productId: product.id, quantity: 1 }] }),
      201,
    );
    const { cookie, token, html } = await openPage(link.id);
    expect(html).toContain('Agenda 2027');
    expect(html).toContain('R$ 45,00');
    const linkCheckouts = () => db().selectFrom('charges').select('id').where('payment_link_id', '=', link.id).execute();

    expect((await postForm(`/pay/${link.id}/checkout`, {}, cookie)).status).toBe(403);
    expect(await linkCheckouts()).toHaveLength(0);

    const started = await postForm(`/pay/${link.id}/checkout`, { _csrf: token }, cookie);
    expect(started.status).toBe(303);
    const [created] = await linkCheckouts();
    expect(started.headers.location).toBe(`/pay/${created.id}`);
    expect(await statusOf(merchant.testKey, created.id)).toBe('PENDING');
  });
});
