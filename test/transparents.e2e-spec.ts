import { expectError, expectOk, expectValidationField } from './support/assertions';
import { randomBytes } from 'node:crypto';
import { crc16CcittFalse, parseEmv } from '../src/modules/charges/methods/pix-br-code';
import { digitableLineOf, isValidDigitableLine } from '../src/modules/charges/methods/boleto';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Transparent charges — API.md §9.3, with §1 (envelope, lists, idempotency), §7 (fees), §9 (lifecycle),
 * §10 (sandbox, test cards) and §13 (event names). Fees below are worked by hand from §7:
 *   PIX 80; BOLETO 250; CARD 1x 3.50 % + 60; 2–6x 4.00 % + 60; 7–12x 4.50 % + 60 (percent half up).
 */
jest.setTimeout(60_000);

type Method = 'PIX' | 'BOLETO' | 'CARD';

interface Transparent {
  id: string;
  method: Method;
  status: string;
  amount: number;
  description: string | null;
  brCode: string | null;
  brCodeBase64: string | null;
  digitableLine: string | null;
  barCode: string | null;
  dueDate: string | null;
  card: { brand: string; last4: string } | null;
  installments: number;
  fee: number | null;
  netAmount: number | null;
  customer: { name: string | null; email: string | null; taxId: string | null; cellphone: string | null } | null;
  externalId: string | null;
  failureReason: string | null;
  expiresAt: string | null;
  paidAt: string | null;
  refundedAt: string | null;
  cancelledAt: string | null;
  metadata: Record<string, string>;
  devMode: boolean;
  createdAt: string;
  updatedAt: string;
}

const CONTRACT_FIELDS = [
  'id',
  'method',
  'status',
  'amount',
  'description',
  'brCode',
  'brCodeBase64',
  'digitableLine',
  'barCode',
  'card',
  'installments',
  'fee',
  'netAmount',
  'customer',
  'externalId',
  'expiresAt',
  'paidAt',
  'metadata',
  'devMode',
  'createdAt',
  'updatedAt',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const VISA_OK = '4242424242424242';
const DECLINES: [string, string][] = [
  ['4000000000000002', 'generic_decline'],
  ['4000000000000069', 'expired_card'],
  ['4000000000000127', 'incorrect_cvc'],
];
const CPF = '529.982.247-25';
const CPF_DIGITS = '52998224725';
const MISSING_ID = 'pix_char_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const DAY_MS = 86_400_000;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const card = (number = VISA_OK, fields: Record<string, unknown> = {}) => ({
  number,
  holderName: 'JOAO DA SILVA',
  expMonth: 12,
  expYear: 2035,
  cvv: '123',
  ...fields,
});
const payer = (fields: Record<string, unknown> = {}) => ({ name: 'Maria Souza', taxId: CPF, ...fields });

/** The BR Code is a well-formed EMV payload whose CRC matches. */
function expectValidBrCode(brCode: string): Map<string, string> {
  expect(brCode.slice(-8, -4)).toBe('6304');
  expect(brCode.slice(-4)).toBe(crc16CcittFalse(brCode.slice(0, -4)));
  return parseEmv(brCode);
}

describe('Transparent charges — /v1/transparents (API.md §9.3)', () => {
  let app: TestApp;
  let merchant: RegisteredMerchant;
  let rival: RegisteredMerchant;
  let liveKey: string;
  let readKey: string;
  let writeKey: string;
  let otherFamilyKey: string;

  const http = () => app.http();
  const post = (token: string, route: string, body: unknown, headers: Record<string, string> = {}) =>
    http()
      .post(`/v1/transparents/${route}`)
      .set({ ...bearer(token), ...headers })
      .send(body as object);
  const create = (token: string, method: string, data: Record<string, unknown>, headers: Record<string, string> = {}) =>
    post(token, 'create', { method, data }, headers);
  const createOk = async (token: string, method: Method, data: Record<string, unknown>): Promise<Transparent> => {
    const response = await create(token, method, data);
    expectOk(response, 201);
    return response.body.data;
  };
  const getRaw = (token: string, id: string) => http().get('/v1/transparents/get').query({ id }).set(bearer(token));
  const fetch = async (id: string, token = merchant.testKey): Promise<Transparent> => {
    const response = await getRaw(token, id);
    expectOk(response);
    return response.body.data;
  };
  const check = (token: string, id: string) => http().get('/v1/transparents/check').query({ id }).set(bearer(token));
  const list = (token: string, query: Record<string, string | number> = {}) =>
    http().get('/v1/transparents/list').query(query).set(bearer(token));
  const actionOk = async (token: string, route: string, body: Record<string, unknown>): Promise<Transparent> => {
    const response = await post(token, route, body);
    expectOk(response);
    return response.body.data;
  };
  const available = async (token: string): Promise<number> => {
    const response = await http().get('/v1/stores/list').set(bearer(token));
    expectOk(response);
    return response.body.data.items[0].balance.available;
  };
  /** Event types recorded for one charge, oldest first, with their objects. */
  const eventsOf = async (chargeId: string) => {
    const rows = await app.database.db.selectFrom('events').selectAll().orderBy('id', 'asc').execute();
    return rows
      .map((row) => ({ type: row.type, object: (JSON.parse(row.data) as { object: Record<string, unknown> }).object }))
      .filter((event) => event.object.id === chargeId);
  };
  const eventTypesOf = async (chargeId: string) => (await eventsOf(chargeId)).map((event) => event.type);
  const chargeRows = (storeId: string) =>
    app.database.db.selectFrom('charges').selectAll().where('store_id', '=', storeId).where('kind', '=', 'transparent').execute();
  const moveExpiryToPast = (id: string) =>
    app.database.db
      .updateTable('charges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();

  beforeAll(async () => {
    app = await startTestApp();
    merchant = await registerMerchant(app, 'Loja A');
    rival = await registerMerchant(app, 'Loja B');
    liveKey = (await createKey(app, merchant.session, { mode: 'live', permissions: ['*'] })).key;
    readKey = (await createKey(app, merchant.session, { permissions: ['transparents:read'] })).key;
    writeKey = (await createKey(app, merchant.session, { permissions: ['transparents:write'] })).key;
    otherFamilyKey = (await createKey(app, merchant.session, { permissions: ['checkouts:read', 'checkouts:write'] })).key;
  });
  afterAll(() => app.close());

  describe('PIX', () => {
    it('answers 201 PENDING with a valid BR Code for the amount, a PNG QR code and expiresAt = now + 3600 s', async () => {
      const before = Date.now();
      const response = await create(merchant.testKey, 'PIX', {
        amount: 12345,
        description: 'Pedido 42',
        externalId: 'order-42',
        metadata: { order: '42' },
        customer: { name: 'Maria Souza', email: 'Maria@Example.com' },
      });
      const after = Date.now();
      expectOk(response, 201);
      const charge: Transparent = response.body.data;
      expect(Object.keys(charge)).toEqual(expect.arrayContaining(CONTRACT_FIELDS));
      expect(charge).toMatchObject({
        method: 'PIX',
        status: 'PENDING',
        amount: 12345,
        description: 'Pedido 42',
        digitableLine: null,
        barCode: null,
        card: null,
        installments: 1,
        fee: null,
        netAmount: null,
        customer: { name: 'Maria Souza', email: 'maria@example.com', taxId: null, cellphone: null },
        externalId: 'order-42',
        paidAt: null,
        metadata: { order: '42' },
        devMode: true,
      });
      expect(charge.id).toMatch(/^pix_char_[0-9A-Z]{26}$/);
      expect(charge.createdAt).toMatch(ISO);

      const fields = expectValidBrCode(charge.brCode as string);
      expect(fields.get('00')).toBe('01');
      expect(fields.get('53')).toBe('986');
      expect(fields.get('54')).toBe('123.45');
      expect(Number(fields.get('54'))).toBe(charge.amount / 100);
      expect(fields.get('58')).toBe('BR');
      expect(fields.get('59')).toBe('Loja A s store'); // "Loja A's store", apostrophe not in the EMV set
      const account = parseEmv(fields.get('26') as string);
      expect(account.get('00')).toBe('br.gov.bcb.pix');
      expect(account.get('01')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const txid = parseEmv(fields.get('62') as string).get('05') as string;
      expect(txid).toMatch(/^[A-Za-z0-9]{1,25}$/);
      expect(txid).toBe(charge.id.replace(/[^A-Za-z0-9]/g, '').slice(-25));

      const prefix = 'data:image/png;base64,';
      expect(charge.brCodeBase64?.startsWith(prefix)).toBe(true);
      const png = Buffer.from((charge.brCodeBase64 as string).slice(prefix.length), 'base64');
      expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      expect(png.length).toBeGreaterThan(100);

      const expiresAt = Date.parse(charge.expiresAt as string);
      expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
      expect(expiresAt).toBeLessThanOrEqual(after + 3_600_000);
      expect(expiresAt - Date.parse(charge.createdAt)).toBe(3_600_000);

      expect(await fetch(charge.id)).toEqual(charge);
    });

    it('uses one Pix key per store: the same for two charges of a store, another for another store', async () => {
      const keyOf = (charge: Transparent) => parseEmv(parseEmv(charge.brCode as string).get('26') as string).get('01');
      const first = await createOk(merchant.testKey, 'PIX', { amount: 1000 });
      const second = await createOk(merchant.testKey, 'PIX', { amount: 2000 });
      const other = await createOk(rival.testKey, 'PIX', { amount: 1000 });
      expect(keyOf(first)).toBe(keyOf(second));
      expect(keyOf(other)).not.toBe(keyOf(first));
      expect(first.brCode).not.toBe(second.brCode);
      expect(parseEmv(second.brCode as string).get('54')).toBe('20.00');
    });

    it.each([
      [60, 60_000],
      [604_800, 604_800_000],
    ])('accepts expiresIn %p (expiresAt = now + %p ms)', async (expiresIn, ms) => {
      const before = Date.now();
      const charge = await createOk(merchant.testKey, 'PIX', { amount: 1000, expiresIn });
      const after = Date.now();
      expect(Date.parse(charge.expiresAt as string)).toBeGreaterThanOrEqual(before + ms);
      expect(Date.parse(charge.expiresAt as string)).toBeLessThanOrEqual(after + ms);
      expect(Date.parse(charge.expiresAt as string) - Date.parse(charge.createdAt)).toBe(ms);
    });

    it.each([59, 604_801, 0, 3600.5, '3600'])('rejects expiresIn %p (400 on data.expiresIn)', async (expiresIn) => {
      expectValidationField(await create(merchant.testKey, 'PIX', { amount: 1000, expiresIn }), 'data.expiresIn');
    });

    it('keeps a long description and still builds a BR Code whose field 26 fits in 99 characters', async () => {
      const description = `Assinatura anual do clube de vinhos — ${'caixa com seis garrafas selecionadas. '.repeat(20)}`.slice(0, 1000);
      const charge = await createOk(merchant.testKey, 'PIX', { amount: 15000, description });
      expect(charge.description).toBe(description);
      const fields = expectValidBrCode(charge.brCode as string);
      expect((fields.get('26') as string).length).toBeLessThanOrEqual(99);
      // 37 characters of room (99 − 18 − 40 − 4); the dash became a space
      expect(parseEmv(fields.get('26') as string).get('02')).toBe('Assinatura anual do clube de vinhos  ');
    });
  });

  describe('BOLETO', () => {
    it('answers 201 PENDING with a 47-digit line and 44-digit barcode with valid check digits, due today + 3 days', async () => {
      const before = Date.now();
      const charge = await createOk(merchant.testKey, 'BOLETO', { amount: 4990, customer: payer({ email: 'maria@example.com' }) });
      const after = Date.now();
      expect(charge.id).toMatch(/^bole_[0-9A-Z]{26}$/);
      expect(charge).toMatchObject({
        method: 'BOLETO',
        status: 'PENDING',
        amount: 4990,
        brCode: null,
        brCodeBase64: null,
        card: null,
        fee: null,
        customer: { name: 'Maria Souza', email: 'maria@example.com', taxId: CPF_DIGITS, cellphone: null },
      });
      expect(charge.digitableLine).toMatch(/^\d{47}$/);
      expect(charge.barCode).toMatch(/^\d{44}$/);
      expect(isValidDigitableLine(charge.digitableLine as string)).toBe(true);
      expect(digitableLineOf(charge.barCode as string)).toBe(charge.digitableLine);
      expect(charge.barCode?.[3]).toBe('9'); // currency: real
      expect(charge.barCode?.slice(9, 19)).toBe('0000004990');
      expect(charge.digitableLine?.slice(-10)).toBe('0000004990');
      expect([utcDay(before + 3 * DAY_MS), utcDay(after + 3 * DAY_MS)]).toContain(charge.dueDate);
      // payable through the end of the due date in Brasília (UTC−3)
      expect(charge.expiresAt).toBe(new Date(`${charge.dueDate}T23:59:59.999-03:00`).toISOString());
      expect(await fetch(charge.id)).toEqual(charge);
    });

    it('takes an explicit due date: its factor (2030-01-15 → 2788) is in the barcode', async () => {
      // 2025-02-22 is factor 1000; 2030-01-15 is 1788 days later (5 years = 1826 days, minus 38).
      const charge = await createOk(merchant.testKey, 'BOLETO', { amount: 123456, dueDate: '2030-01-15', customer: payer() });
      expect(charge.dueDate).toBe('2030-01-15');
      expect(charge.barCode?.slice(5, 9)).toBe('2788');
      expect(charge.barCode?.slice(9, 19)).toBe('0000123456');
      expect(charge.digitableLine?.slice(33)).toBe('27880000123456');
      expect(charge.expiresAt).toBe('2030-01-16T02:59:59.999Z');
      expect(isValidDigitableLine(charge.digitableLine as string)).toBe(true);
    });

    it('accepts today as the due date and a CNPJ payer', async () => {
      const today = utcDay(Date.now());
      const charge = await createOk(merchant.testKey, 'BOLETO', {
        amount: 1000,
        dueDate: today,
        customer: payer({ name: 'Padaria Central Ltda', taxId: '11.222.333/0001-81' }),
      });
      expect(charge.dueDate).toBe(today);
      expect(charge.customer?.taxId).toBe('11222333000181');
    });

    it.each([
      ['yesterday', () => utcDay(Date.now() - DAY_MS)],
      ['a date in 2020', () => '2020-06-01'],
      ['30 February', () => '2027-02-30'],
      ['month 13', () => '2027-13-01'],
      ['a Brazilian-format date', () => '15/01/2030'],
      ['a timestamp', () => '2030-01-15T00:00:00Z'],
    ])('rejects a due date of %s (400 on data.dueDate)', async (_label, dueDate) => {
      expectValidationField(await create(merchant.testKey, 'BOLETO', { amount: 1000, dueDate: dueDate(), customer: payer() }), 'data.dueDate');
    });

    it.each([
      ['no customer', undefined],
      ['a customer without name', { taxId: CPF }],
      ['a customer without taxId', { name: 'Maria Souza', email: 'maria@example.com' }],
    ])('needs customer.name and customer.taxId: 400 with %s', async (_label, customer) => {
      const stored = (await chargeRows(merchant.storeId)).length;
      expectValidationField(await create(merchant.testKey, 'BOLETO', { amount: 1000, customer }), 'data.customer');
      expect((await chargeRows(merchant.storeId)).length).toBe(stored);
    });

    it.each(['529.982.247-26', '111.111.111-11', '1234', '11.222.333/0001-82'])('rejects the invalid taxId %p', async (taxId) => {
      expectValidationField(await create(merchant.testKey, 'BOLETO', { amount: 1000, customer: payer({ taxId }) }), 'data.customer.taxId');
    });

    it('refuses an amount a boleto cannot carry (over R$ 99.999.999,99)', async () => {
      expectValidationField(await create(merchant.testKey, 'BOLETO', { amount: 10_000_000_000, customer: payer() }), 'data.amount');
    });
  });

  describe('CARD', () => {
    it('charges 4242424242424242 at once: 201 PAID, VISA 4242, fee 3.50 % + 60 credited net to the balance', async () => {
      const seller = await registerMerchant(app, 'Loja Cartao');
      const before = Date.now();
      const charge = await createOk(seller.testKey, 'CARD', { amount: 12345, card: card(), description: 'Camiseta' });
      expect(charge.id).toMatch(/^card_[0-9A-Z]{26}$/);
      // 12345 × 350 / 10000 = 432.075 → 432; + 60 = 492
      expect(charge).toMatchObject({
        method: 'CARD',
        status: 'PAID',
        amount: 12345,
        card: { brand: 'VISA', last4: '4242' },
        installments: 1,
        fee: 492,
        netAmount: 11853,
        brCode: null,
        digitableLine: null,
        failureReason: null,
        expiresAt: null,
      });
      expect(Date.parse(charge.paidAt as string)).toBeGreaterThanOrEqual(before - 1000);
      expect(await available(seller.testKey)).toBe(11853);
      expect(await eventTypesOf(charge.id)).toEqual(['transparent.created', 'transparent.paid']);
      expect(await fetch(charge.id, seller.testKey)).toEqual(charge);
    });

    it.each([
      // 12345 × 400 / 10000 = 493.8 → 494; + 60
      [3, 12345, 554],
      // 6000 × 400 / 10000 = 240; + 60 (last installment count of the 4.00 % tier)
      [6, 6000, 300],
      // 7000 × 450 / 10000 = 315; + 60
      [7, 7000, 375],
      // 12000 × 450 / 10000 = 540; + 60
      [12, 12000, 600],
    ])('in %p installments of %p centavos charges a fee of %p', async (installments, amount, fee) => {
      const seller = await registerMerchant(app, 'Loja Parcelada');
      const charge = await createOk(seller.testKey, 'CARD', { amount, installments, card: card() });
      expect(charge).toMatchObject({ status: 'PAID', installments, fee, netAmount: amount - fee });
      expect(await available(seller.testKey)).toBe(amount - fee);
    });

    it('rounds the percentage half up: 100 centavos at 1x pay 3.5 → 4 + 60 = 64', async () => {
      const charge = await createOk(merchant.testKey, 'CARD', { amount: 100, card: card() });
      expect(charge).toMatchObject({ fee: 64, netAmount: 36 });
    });

    it.each(DECLINES)('declines %s with 402 CARD_DECLINED (%s) and stores the charge as FAILED', async (number, reason) => {
      const seller = await registerMerchant(app, 'Loja Recusa');
      const response = await create(seller.testKey, 'CARD', { amount: 5000, card: card(number) });
      expectError(response, 402, 'CARD_DECLINED');
      const detail = response.body.error.details[0];
      expect(detail.reason).toBe(reason);
      expect(detail.chargeId).toMatch(/^card_[0-9A-Z]{26}$/);
      expect(JSON.stringify(response.body)).not.toContain(number);

      const stored = await fetch(detail.chargeId, seller.testKey);
      expect(stored).toMatchObject({
        id: detail.chargeId,
        method: 'CARD',
        status: 'FAILED',
        amount: 5000,
        failureReason: reason,
        card: { brand: 'VISA', last4: number.slice(-4) },
        fee: null,
        netAmount: null,
        paidAt: null,
      });
      expect(await eventTypesOf(detail.chargeId)).toEqual(['transparent.created', 'transparent.failed']);
      expect(await available(seller.testKey)).toBe(0);
      expect((await chargeRows(seller.storeId)).map((row) => row.id)).toEqual([detail.chargeId]);
    });

    it('the dispute card 4000000000000259 is approved and disputed at once (API.md §10.3)', async () => {
      const charge = await createOk(merchant.testKey, 'CARD', { amount: 2000, card: card('4000000000000259') });
      expect(charge).toMatchObject({ status: 'UNDER_DISPUTE', card: { brand: 'VISA', last4: '0259' } });
      expect(charge.paidAt).not.toBeNull();
      const disputes = await app.http().get(`/v1/disputes/list?chargeId=${charge.id}`).set(bearer(merchant.testKey)).expect(200);
      expect(disputes.body.data.items).toHaveLength(1);
      expect(disputes.body.data.items[0]).toMatchObject({ chargeId: charge.id, amount: 2000, status: 'OPEN', reason: 'FRAUD' });
    });

    it('accepts the card number with spaces', async () => {
      const charge = await createOk(merchant.testKey, 'CARD', { amount: 2000, card: card('4242 4242 4242 4242') });
      expect(charge).toMatchObject({ status: 'PAID', card: { brand: 'VISA', last4: '4242' } });
    });

    it('rejects a number failing the Luhn check with 400 and stores nothing', async () => {
      const stored = (await chargeRows(merchant.storeId)).length;
      const response = await create(merchant.testKey, 'CARD', { amount: 2000, card: card('4242424242424241') });
      expectValidationField(response, 'data.card.number');
      expect(JSON.stringify(response.body)).not.toContain('4242424242424241');
      expect((await chargeRows(merchant.storeId)).length).toBe(stored);
    });

    it('rejects an expired card with 400 and takes one expiring this month', async () => {
      const now = new Date();
      const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
      expectValidationField(
        await create(merchant.testKey, 'CARD', {
          amount: 2000,
          card: card(VISA_OK, { expMonth: lastMonth.getUTCMonth() + 1, expYear: lastMonth.getUTCFullYear() }),
        }),
        'data.card.expYear',
      );
      expectValidationField(
        await create(merchant.testKey, 'CARD', { amount: 2000, card: card(VISA_OK, { expMonth: 12, expYear: 2020 }) }),
        'data.card.expYear',
      );
      const charge = await createOk(merchant.testKey, 'CARD', {
        amount: 2000,
        card: card(VISA_OK, { expMonth: now.getUTCMonth() + 1, expYear: now.getUTCFullYear() }),
      });
      expect(charge.status).toBe('PAID');
    });

    it.each([
      ['no card', {}, 'data.card'],
      ['a 3-digit cvv missing', { card: card(VISA_OK, { cvv: '12' }) }, 'data.card.cvv'],
      ['month 13', { card: card(VISA_OK, { expMonth: 13 }) }, 'data.card.expMonth'],
      ['no holder name', { card: card(VISA_OK, { holderName: undefined }) }, 'data.card.holderName'],
      ['letters in the number', { card: card('4242abcd42424242') }, 'data.card.number'],
      ['13 installments', { card: card(), installments: 13 }, 'data.installments'],
      ['0 installments', { card: card(), installments: 0 }, 'data.installments'],
      ['an unknown card field', { card: { ...card(), pin: '1234' } }, 'data.card.pin'],
    ])('rejects a card charge with %s', async (_label, fields, field) => {
      expectValidationField(await create(merchant.testKey, 'CARD', { amount: 20_000, ...fields }), field);
    });

    it('refuses raw card numbers with a live key (400) and stores nothing', async () => {
      const response = await create(liveKey, 'CARD', { amount: 2000, card: card() });
      expectValidationField(response, 'data.card');
      const liveRows = await app.database.db.selectFrom('charges').select('id').where('mode', '=', 'live').where('method', '=', 'CARD').execute();
      expect(liveRows).toEqual([]);
    });

    it('never stores or answers the card number: not in the response, the charges row, its events', async () => {
      const seller = await registerMerchant(app, 'Loja Sigilo');
      const approved = await create(seller.testKey, 'CARD', { amount: 3000, card: card(VISA_OK) });
      const declined = await create(seller.testKey, 'CARD', { amount: 3000, card: card('4000000000000002') });
      expectOk(approved, 201);
      expectError(declined, 402, 'CARD_DECLINED');
      const secrets = [VISA_OK, '4000000000000002', '424242424242', '400000000000', 'JOAO DA SILVA'];
      const rows = await chargeRows(seller.storeId);
      expect(rows).toHaveLength(2);
      const events = await app.database.db.selectFrom('events').selectAll().where('store_id', '=', seller.storeId).execute();
      expect(events.length).toBeGreaterThanOrEqual(4);
      for (const text of [approved.text, declined.text, JSON.stringify(rows), JSON.stringify(events)]) {
        for (const secret of secrets) expect(text).not.toContain(secret);
      }
      expect(rows.map((row) => row.card_last4).sort()).toEqual(['0002', '4242']);
    });
  });

  describe('rules shared by the methods', () => {
    it.each([
      ['PIX', { amount: 1000, card: card() }, 'data.card'],
      ['PIX', { amount: 1000, dueDate: '2030-01-15' }, 'data.dueDate'],
      ['PIX', { amount: 1000, installments: 1 }, 'data.installments'],
      ['BOLETO', { amount: 1000, customer: payer(), expiresIn: 3600 }, 'data.expiresIn'],
      ['BOLETO', { amount: 1000, customer: payer(), card: card() }, 'data.card'],
      ['CARD', { amount: 1000, card: card(), expiresIn: 3600 }, 'data.expiresIn'],
      ['CARD', { amount: 1000, card: card(), dueDate: '2030-01-15' }, 'data.dueDate'],
    ])('refuses on %s a field of another method (%j → 400)', async (method, data, field) => {
      const stored = (await chargeRows(merchant.storeId)).length;
      expectValidationField(await create(merchant.testKey, method, data), field);
      expect((await chargeRows(merchant.storeId)).length).toBe(stored);
    });

    it.each([
      ['PIX', 99, {}],
      ['BOLETO', 299, { customer: payer() }],
      ['CARD', 99, { card: card() }],
      ['CARD', 2999, { card: card(), installments: 3 }],
      ['CARD', 11_999, { card: card(), installments: 12 }],
    ])('refuses %s of %p centavos (%j) with 400 AMOUNT_BELOW_MINIMUM', async (method, amount, extra) => {
      const stored = (await chargeRows(merchant.storeId)).length;
      expectError(await create(merchant.testKey, method, { amount, ...extra }), 400, 'AMOUNT_BELOW_MINIMUM');
      expect((await chargeRows(merchant.storeId)).length).toBe(stored);
    });

    it.each([
      ['PIX', 100, {}, 'PENDING'],
      ['BOLETO', 300, { customer: payer() }, 'PENDING'],
      ['CARD', 3000, { card: card(), installments: 3 }, 'PAID'],
    ])('takes %s at exactly its minimum of %p', async (method, amount, extra, status) => {
      const charge = await createOk(merchant.testKey, method as Method, { amount, ...extra });
      expect(charge).toMatchObject({ amount, status });
    });

    it.each([
      ['an unknown method', { method: 'TED', data: { amount: 1000 } }, 'method'],
      ['a lower-case method', { method: 'pix', data: { amount: 1000 } }, 'method'],
      ['no data', { method: 'PIX' }, 'data'],
      ['a fractional amount', { method: 'PIX', data: { amount: 1000.5 } }, 'data.amount'],
      ['an amount as a string', { method: 'PIX', data: { amount: '1000' } }, 'data.amount'],
      ['a zero amount', { method: 'PIX', data: { amount: 0 } }, 'data.amount'],
      ['an unknown data field', { method: 'PIX', data: { amount: 1000, tip: 10 } }, 'data.tip'],
      ['an unknown top-level field', { method: 'PIX', data: { amount: 1000 }, amount: 1000 }, 'amount'],
      ['a bad customer email', { method: 'PIX', data: { amount: 1000, customer: { email: 'nope' } } }, 'data.customer.email'],
      ['metadata with a nested object', { method: 'PIX', data: { amount: 1000, metadata: { a: { b: 1 } } } }, 'data.metadata'],
    ])('rejects a body with %s (400)', async (_label, body, field) => {
      expectValidationField(await post(merchant.testKey, 'create', body), field);
    });
  });

  describe('check', () => {
    it('returns just {id, status, expiresAt}', async () => {
      const pix = await createOk(merchant.testKey, 'PIX', { amount: 1500 });
      const response = await check(merchant.testKey, pix.id);
      expectOk(response);
      expect(response.body.data).toEqual({ id: pix.id, status: 'PENDING', expiresAt: pix.expiresAt });

      const paid = await createOk(merchant.testKey, 'CARD', { amount: 1500, card: card() });
      expect((await check(merchant.testKey, paid.id)).body.data).toEqual({ id: paid.id, status: 'PAID', expiresAt: null });
    });

    it('answers 404 for an unknown id and 400 without id', async () => {
      expectError(await check(merchant.testKey, MISSING_ID), 404, 'NOT_FOUND');
      expectValidationField(await http().get('/v1/transparents/check').set(bearer(merchant.testKey)), 'id');
    });
  });

  describe('list', () => {
    let seller: RegisteredMerchant;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      seller = await registerMerchant(app, 'Loja Lista');
      ids.p1 = (await createOk(seller.testKey, 'PIX', { amount: 1000 })).id;
      ids.p2 = (await createOk(seller.testKey, 'PIX', { amount: 1100 })).id;
      ids.p3 = (await createOk(seller.testKey, 'PIX', { amount: 1200 })).id;
      ids.b1 = (await createOk(seller.testKey, 'BOLETO', { amount: 1300, customer: payer() })).id;
      ids.b2 = (await createOk(seller.testKey, 'BOLETO', { amount: 1400, customer: payer() })).id;
      ids.c1 = (await createOk(seller.testKey, 'CARD', { amount: 1500, card: card() })).id;
      const declined = await create(seller.testKey, 'CARD', { amount: 1600, card: card('4000000000000002') });
      ids.c2 = declined.body.error.details[0].chargeId;
      await actionOk(seller.testKey, 'cancel', { id: ids.p2 });
    });

    const listIds = async (query: Record<string, string | number>) => {
      const response = await list(seller.testKey, query);
      expectOk(response);
      return (response.body.data.items as Transparent[]).map((item) => item.id);
    };

    it('lists newest first, every method', async () => {
      const response = await list(seller.testKey);
      expectOk(response);
      expect(response.body.data.hasMore).toBe(false);
      expect(response.body.data.next).toBeNull();
      expect(response.body.data.items.map((item: Transparent) => item.id)).toEqual([
        ids.c2,
        ids.c1,
        ids.b2,
        ids.b1,
        ids.p3,
        ids.p2,
        ids.p1,
      ]);
      expect(response.body.data.items[0]).toEqual(await fetch(ids.c2, seller.testKey));
    });

    it.each([
      [{ method: 'PIX' }, ['p3', 'p2', 'p1']],
      [{ method: 'BOLETO' }, ['b2', 'b1']],
      [{ method: 'CARD' }, ['c2', 'c1']],
      [{ status: 'PENDING' }, ['b2', 'b1', 'p3', 'p1']],
      [{ status: 'PAID' }, ['c1']],
      [{ status: 'FAILED' }, ['c2']],
      [{ status: 'CANCELLED' }, ['p2']],
      [{ status: 'PENDING', method: 'PIX' }, ['p3', 'p1']],
      [{ status: 'REFUNDED' }, []],
    ])('filters by %j', async (query, expected) => {
      expect(await listIds(query)).toEqual(expected.map((name) => ids[name]));
    });

    it('pages with limit and the next cursor', async () => {
      const first = await list(seller.testKey, { limit: 3 });
      expect(first.body.data).toMatchObject({ hasMore: true, next: expect.any(String) });
      expect(first.body.data.items.map((item: Transparent) => item.id)).toEqual([ids.c2, ids.c1, ids.b2]);
      const second = await list(seller.testKey, { limit: 3, after: first.body.data.next });
      expect(second.body.data.items.map((item: Transparent) => item.id)).toEqual([ids.b1, ids.p3, ids.p2]);
      expect(second.body.data.hasMore).toBe(true);
      const third = await list(seller.testKey, { limit: 3, after: second.body.data.next });
      expect(third.body.data).toEqual({ items: [expect.objectContaining({ id: ids.p1 })], hasMore: false, next: null });
      expect(await listIds({ method: 'PIX', limit: 2, after: first.body.data.next })).toEqual([ids.p3, ids.p2]);
    });

    it.each([
      [{ status: 'LOST' }, 'status'],
      [{ method: 'TED' }, 'method'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ after: '!!not-a-cursor' }, 'after'],
    ])('rejects the query %j', async (query, field) => {
      expectValidationField(await list(seller.testKey, query), field);
    });
  });

  describe('cancel', () => {
    it('moves a PENDING charge to CANCELLED once, with transparent.cancelled', async () => {
      const pix = await createOk(merchant.testKey, 'PIX', { amount: 2500 });
      const cancelled = await actionOk(merchant.testKey, 'cancel', { id: pix.id });
      expect(cancelled).toMatchObject({ id: pix.id, status: 'CANCELLED', paidAt: null });
      expect(Date.parse(cancelled.cancelledAt as string)).toBeGreaterThan(0);
      expect(await fetch(pix.id)).toEqual(cancelled);
      expectError(await post(merchant.testKey, 'cancel', { id: pix.id }), 409, 'INVALID_STATE');
      expectError(await post(merchant.testKey, 'simulate-payment', { id: pix.id }), 409, 'INVALID_STATE');
      expect(await eventTypesOf(pix.id)).toEqual(['transparent.created', 'transparent.cancelled']);
    });

    it('cancels a PENDING boleto; refuses a PAID card charge (409)', async () => {
      const boleto = await createOk(merchant.testKey, 'BOLETO', { amount: 2500, customer: payer() });
      expect((await actionOk(merchant.testKey, 'cancel', { id: boleto.id })).status).toBe('CANCELLED');
      const paid = await createOk(merchant.testKey, 'CARD', { amount: 2500, card: card() });
      expectError(await post(merchant.testKey, 'cancel', { id: paid.id }), 409, 'INVALID_STATE');
      expect((await fetch(paid.id)).status).toBe('PAID');
    });

    it('answers 404 for an unknown id', async () => {
      expectError(await post(merchant.testKey, 'cancel', { id: MISSING_ID }), 404, 'NOT_FOUND');
    });
  });

  describe('refund', () => {
    it('refunds a PAID charge in full: REFUNDED, available − amount, fee kept; a second refund changes nothing', async () => {
      const seller = await registerMerchant(app, 'Loja Reembolso');
      // CARD 20000: 700 + 60 = 760 → 19240. PIX 10000: 80 → 9920. Available 29160.
      await createOk(seller.testKey, 'CARD', { amount: 20_000, card: card() });
      const pix = await createOk(seller.testKey, 'PIX', { amount: 10_000 });
      await actionOk(seller.testKey, 'simulate-payment', { id: pix.id });
      expect(await available(seller.testKey)).toBe(29_160);

      const refunded = await actionOk(seller.testKey, 'refund', { id: pix.id, reason: 'cliente desistiu' });
      expect(refunded).toMatchObject({ id: pix.id, status: 'REFUNDED', amount: 10_000, fee: 80, netAmount: 9920 });
      expect(Date.parse(refunded.refundedAt as string)).toBeGreaterThan(0);
      expect(await available(seller.testKey)).toBe(19_160);

      const again = await actionOk(seller.testKey, 'refund', { id: pix.id });
      expect(again).toEqual(refunded);
      expect(await available(seller.testKey)).toBe(19_160);
      expect(await eventTypesOf(pix.id)).toEqual(['transparent.created', 'transparent.paid', 'transparent.refunded']);
    });

    it('refuses PENDING and FAILED charges (409 INVALID_STATE)', async () => {
      const pending = await createOk(merchant.testKey, 'PIX', { amount: 1000 });
      expectError(await post(merchant.testKey, 'refund', { id: pending.id }), 409, 'INVALID_STATE');
      expect((await fetch(pending.id)).status).toBe('PENDING');
      const declined = await create(merchant.testKey, 'CARD', { amount: 1000, card: card('4000000000000127') });
      expectError(await post(merchant.testKey, 'refund', { id: declined.body.error.details[0].chargeId }), 409, 'INVALID_STATE');
    });

    it('refuses a refund larger than the available balance (409 INSUFFICIENT_FUNDS), charge stays PAID', async () => {
      const seller = await registerMerchant(app, 'Loja Sem Saldo');
      // 10000 at 1x: 350 + 60 = 410 → 9590 available, less than the 10000 to give back
      const paid = await createOk(seller.testKey, 'CARD', { amount: 10_000, card: card() });
      expect(await available(seller.testKey)).toBe(9590);
      expectError(await post(seller.testKey, 'refund', { id: paid.id }), 409, 'INSUFFICIENT_FUNDS');
      expect((await fetch(paid.id, seller.testKey)).status).toBe('PAID');
      expect(await available(seller.testKey)).toBe(9590);
    });
  });

  describe('sandbox simulations', () => {
    it('simulate-payment pays a PENDING PIX (fee 80) and a PENDING BOLETO (fee 250) and credits the net', async () => {
      const seller = await registerMerchant(app, 'Loja Simulada');
      const pix = await createOk(seller.testKey, 'PIX', { amount: 12_345 });
      const boleto = await createOk(seller.testKey, 'BOLETO', { amount: 4990, customer: payer() });

      const paidPix = await actionOk(seller.testKey, 'simulate-payment', { id: pix.id });
      expect(paidPix).toMatchObject({ id: pix.id, status: 'PAID', method: 'PIX', fee: 80, netAmount: 12_265, brCode: pix.brCode });
      expect(Date.parse(paidPix.paidAt as string)).toBeGreaterThan(0);
      const paidBoleto = await actionOk(seller.testKey, 'simulate-payment', { id: boleto.id });
      expect(paidBoleto).toMatchObject({ status: 'PAID', method: 'BOLETO', fee: 250, netAmount: 4740 });
      expect(await available(seller.testKey)).toBe(12_265 + 4740);
      expect(await fetch(pix.id, seller.testKey)).toEqual(paidPix);

      expectError(await post(seller.testKey, 'simulate-payment', { id: pix.id }), 409, 'INVALID_STATE');
      expect(await available(seller.testKey)).toBe(17_005);
      expect(await eventTypesOf(pix.id)).toEqual(['transparent.created', 'transparent.paid']);
      const paidEvent = (await eventsOf(pix.id))[1];
      expect(paidEvent.object).toEqual(paidPix);
    });

    it('simulate-payment on a CARD charge (PAID or FAILED already) is 409', async () => {
      const paid = await createOk(merchant.testKey, 'CARD', { amount: 1000, card: card() });
      expectError(await post(merchant.testKey, 'simulate-payment', { id: paid.id }), 409, 'INVALID_STATE');
      const declined = await create(merchant.testKey, 'CARD', { amount: 1000, card: card('4000000000000069') });
      const failedId = declined.body.error.details[0].chargeId;
      expectError(await post(merchant.testKey, 'simulate-payment', { id: failedId }), 409, 'INVALID_STATE');
      expect((await fetch(failedId)).status).toBe('FAILED');
    });

    it('simulate-expiration expires a PENDING charge once, with transparent.expired', async () => {
      const pix = await createOk(merchant.testKey, 'PIX', { amount: 1000 });
      const expired = await actionOk(merchant.testKey, 'simulate-expiration', { id: pix.id });
      expect(expired).toMatchObject({ id: pix.id, status: 'EXPIRED', paidAt: null });
      expectError(await post(merchant.testKey, 'simulate-expiration', { id: pix.id }), 409, 'INVALID_STATE');
      expectError(await post(merchant.testKey, 'simulate-payment', { id: pix.id }), 409, 'INVALID_STATE');
      expect(await eventTypesOf(pix.id)).toEqual(['transparent.created', 'transparent.expired']);

      const boleto = await createOk(merchant.testKey, 'BOLETO', { amount: 1000, customer: payer() });
      expect((await actionOk(merchant.testKey, 'simulate-expiration', { id: boleto.id })).status).toBe('EXPIRED');
      const paid = await createOk(merchant.testKey, 'CARD', { amount: 1000, card: card() });
      expectError(await post(merchant.testKey, 'simulate-expiration', { id: paid.id }), 409, 'INVALID_STATE');
    });

    it('answers 404 to a simulation on an unknown id', async () => {
      expectError(await post(merchant.testKey, 'simulate-payment', { id: MISSING_ID }), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'simulate-expiration', { id: MISSING_ID }), 404, 'NOT_FOUND');
    });
  });

  describe('live mode', () => {
    it('creates a live PIX (devMode false) that stays PENDING: simulations are 403 SANDBOX_ONLY', async () => {
      const charge = await createOk(liveKey, 'PIX', { amount: 5000 });
      expect(charge).toMatchObject({ status: 'PENDING', devMode: false });
      expect(parseEmv(charge.brCode as string).get('54')).toBe('50.00');
      expectError(await post(liveKey, 'simulate-payment', { id: charge.id }), 403, 'SANDBOX_ONLY');
      expectError(await post(liveKey, 'simulate-expiration', { id: charge.id }), 403, 'SANDBOX_ONLY');
      expect(await fetch(charge.id, liveKey)).toMatchObject({ status: 'PENDING', paidAt: null, devMode: false });
      expect(await eventTypesOf(charge.id)).toEqual(['transparent.created']);
    });

    it('answers 403 SANDBOX_ONLY to a live simulation whatever the id', async () => {
      const sandbox = await createOk(merchant.testKey, 'PIX', { amount: 5000 });
      for (const id of [sandbox.id, MISSING_ID]) {
        expectError(await post(liveKey, 'simulate-payment', { id }), 403, 'SANDBOX_ONLY');
        expectError(await post(liveKey, 'simulate-expiration', { id }), 403, 'SANDBOX_ONLY');
      }
      expect((await fetch(sandbox.id)).status).toBe('PENDING');
    });

    it('creates a live BOLETO (devMode false)', async () => {
      const charge = await createOk(liveKey, 'BOLETO', { amount: 5000, customer: payer() });
      expect(charge).toMatchObject({ status: 'PENDING', devMode: false });
      expect(isValidDigitableLine(charge.digitableLine as string)).toBe(true);
    });
  });

  describe('expiry on read', () => {
    it('shows a PENDING charge past expiresAt as EXPIRED on get, once, and refuses to pay it', async () => {
      const pix = await createOk(merchant.testKey, 'PIX', { amount: 1000 });
      await moveExpiryToPast(pix.id);
      expect((await fetch(pix.id)).status).toBe('EXPIRED');
      expect((await fetch(pix.id)).status).toBe('EXPIRED');
      expect((await check(merchant.testKey, pix.id)).body.data.status).toBe('EXPIRED');
      expectError(await post(merchant.testKey, 'simulate-payment', { id: pix.id }), 409, 'INVALID_STATE');
      expectError(await post(merchant.testKey, 'cancel', { id: pix.id }), 409, 'INVALID_STATE');
      expect(await eventTypesOf(pix.id)).toEqual(['transparent.created', 'transparent.expired']);
    });

    it('expires on check and on list as well', async () => {
      const seller = await registerMerchant(app, 'Loja Expira');
      const viaCheck = await createOk(seller.testKey, 'PIX', { amount: 1000 });
      const viaList = await createOk(seller.testKey, 'BOLETO', { amount: 1000, customer: payer() });
      await moveExpiryToPast(viaCheck.id);
      await moveExpiryToPast(viaList.id);
      expect((await check(seller.testKey, viaCheck.id)).body.data).toMatchObject({ id: viaCheck.id, status: 'EXPIRED' });
      const response = await list(seller.testKey, { status: 'EXPIRED' });
      expect(response.body.data.items.map((item: Transparent) => item.id)).toEqual([viaList.id, viaCheck.id]);
      expect(await eventTypesOf(viaList.id)).toEqual(['transparent.created', 'transparent.expired']);
    });
  });

  describe('events', () => {
    it('records created, paid and refunded once each, with the charge as get shows it then', async () => {
      const seller = await registerMerchant(app, 'Loja Eventos');
      await createOk(seller.testKey, 'CARD', { amount: 50_000, card: card() });
      const created = await createOk(seller.testKey, 'PIX', { amount: 3000 });
      const paid = await actionOk(seller.testKey, 'simulate-payment', { id: created.id });
      const refunded = await actionOk(seller.testKey, 'refund', { id: created.id });
      await post(seller.testKey, 'refund', { id: created.id });
      await post(seller.testKey, 'simulate-payment', { id: created.id });
      const events = await eventsOf(created.id);
      expect(events.map((event) => event.type)).toEqual(['transparent.created', 'transparent.paid', 'transparent.refunded']);
      expect(events.map((event) => event.object)).toEqual([created, paid, refunded]);
      const rows = await app.database.db.selectFrom('events').selectAll().where('store_id', '=', seller.storeId).execute();
      expect(rows.every((row) => row.mode === 'test')).toBe(true);
    });
  });

  describe('permissions', () => {
    let pending: Transparent;
    beforeAll(async () => {
      pending = await createOk(merchant.testKey, 'PIX', { amount: 1000 });
    });

    it('transparents:read reads (get, list, check) but cannot write', async () => {
      expectOk(await getRaw(readKey, pending.id));
      expectOk(await list(readKey));
      expectOk(await check(readKey, pending.id));
      expectError(await create(readKey, 'PIX', { amount: 1000 }), 403, 'FORBIDDEN');
      for (const route of ['cancel', 'refund', 'simulate-payment', 'simulate-expiration']) {
        expectError(await post(readKey, route, { id: pending.id }), 403, 'FORBIDDEN');
      }
      expect((await fetch(pending.id)).status).toBe('PENDING');
    });

    it('transparents:write creates and acts but cannot read', async () => {
      const response = await create(writeKey, 'PIX', { amount: 1000 });
      expectOk(response, 201);
      expectError(await getRaw(writeKey, pending.id), 403, 'FORBIDDEN');
      expectError(await list(writeKey), 403, 'FORBIDDEN');
      expectError(await check(writeKey, pending.id), 403, 'FORBIDDEN');
      expect((await actionOk(writeKey, 'cancel', { id: response.body.data.id })).status).toBe('CANCELLED');
    });

    it('a key of another family gets 403 everywhere; no key gets 401', async () => {
      expectError(await create(otherFamilyKey, 'PIX', { amount: 1000 }), 403, 'FORBIDDEN');
      expectError(await getRaw(otherFamilyKey, pending.id), 403, 'FORBIDDEN');
      expectError(await list(otherFamilyKey), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'simulate-payment', { id: pending.id }), 403, 'FORBIDDEN');
      expectError(await http().get('/v1/transparents/get').query({ id: pending.id }), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/transparents/create').send({ method: 'PIX', data: { amount: 1000 } }), 401, 'UNAUTHENTICATED');
    });
  });

  describe('tenant and mode isolation', () => {
    it("answers 404 for another merchant's charge on every route and leaves it alone", async () => {
      const mine = await createOk(merchant.testKey, 'PIX', { amount: 1000 });
      expectError(await getRaw(rival.testKey, mine.id), 404, 'NOT_FOUND');
      expectError(await check(rival.testKey, mine.id), 404, 'NOT_FOUND');
      for (const route of ['cancel', 'refund', 'simulate-payment', 'simulate-expiration']) {
        expectError(await post(rival.testKey, route, { id: mine.id }), 404, 'NOT_FOUND');
      }
      const rivalIds = ((await list(rival.testKey, { limit: 100 })).body.data.items as Transparent[]).map((item) => item.id);
      expect(rivalIds).not.toContain(mine.id);
      expect((await fetch(mine.id)).status).toBe('PENDING');
    });

    it("answers 404 for the other mode's charge", async () => {
      const sandbox = await createOk(merchant.testKey, 'PIX', { amount: 1000 });
      const live = await createOk(liveKey, 'PIX', { amount: 1000 });
      expectError(await getRaw(liveKey, sandbox.id), 404, 'NOT_FOUND');
      expectError(await post(liveKey, 'cancel', { id: sandbox.id }), 404, 'NOT_FOUND');
      expectError(await getRaw(merchant.testKey, live.id), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'simulate-payment', { id: live.id }), 404, 'NOT_FOUND');
      const liveIds = ((await list(liveKey, { limit: 100 })).body.data.items as Transparent[]).map((item) => item.id);
      expect(liveIds).toContain(live.id);
      expect(liveIds).not.toContain(sandbox.id);
    });

    it('answers 404 for the id of a checkout (another kind of charge)', async () => {
      const product = await http()
        .post('/v1/products/create')
        .set(bearer(merchant.testKey))
        .send({ externalId: `sku-${randomBytes(4).toString('hex')}`, name: 'Caneca', price: 3000 });
      expectOk(product, 201);
      const checkout = await http()
        .post('/v1/checkouts/create')
        .set(bearer(merchant.testKey))
        .send({ items: [{ productId: product.body.data.id, quantity: 1 }] });
      expectOk(checkout, 201);
      expectError(await getRaw(merchant.testKey, checkout.body.data.id), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'cancel', { id: checkout.body.data.id }), 404, 'NOT_FOUND');
    });
  });

  describe('idempotency', () => {
    it('replays the same PIX charge (same id, same brCode) for a retry with the same Idempotency-Key', async () => {
      const key = `idem-${randomBytes(8).toString('hex')}`;
      const stored = (await chargeRows(merchant.storeId)).length;
      const first = await create(merchant.testKey, 'PIX', { amount: 7777 }, { 'Idempotency-Key': key });
      expectOk(first, 201);
      const retry = await create(merchant.testKey, 'PIX', { amount: 7777 }, { 'Idempotency-Key': key });
      expectOk(retry, 201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect(retry.body.data.brCode).toBe(first.body.data.brCode);
      expect((await chargeRows(merchant.storeId)).length).toBe(stored + 1);
      expect(await eventTypesOf(first.body.data.id)).toEqual(['transparent.created']);

      expectError(await create(merchant.testKey, 'PIX', { amount: 7778 }, { 'Idempotency-Key': key }), 422, 'IDEMPOTENCY_KEY_REUSED');
    });

    it('charges a card once for concurrent retries with one Idempotency-Key', async () => {
      const seller = await registerMerchant(app, 'Loja Idempotente');
      const key = `idem-${randomBytes(8).toString('hex')}`;
      const responses = await Promise.all(
        Array.from({ length: 4 }, () => create(seller.testKey, 'CARD', { amount: 10_000, card: card() }, { 'Idempotency-Key': key })),
      );
      const done = responses.filter((response) => response.status === 201);
      expect(done.length).toBeGreaterThanOrEqual(1);
      for (const response of responses) {
        if (response.status !== 201) expectError(response, 409, 'IDEMPOTENCY_IN_PROGRESS');
      }
      expect(new Set(done.map((response) => response.body.data.id)).size).toBe(1);
      expect(await chargeRows(seller.storeId)).toHaveLength(1);
      expect(await available(seller.testKey)).toBe(9590);
      const replay = await create(seller.testKey, 'CARD', { amount: 10_000, card: card() }, { 'Idempotency-Key': key });
      expect(replay.status).toBe(201);
      expect(replay.body.data.id).toBe(done[0].body.data.id);
      expect(await available(seller.testKey)).toBe(9590);
    });

    it('replays a declined card (402) without storing a second FAILED charge', async () => {
      const seller = await registerMerchant(app, 'Loja Recusa Idem');
      const key = `idem-${randomBytes(8).toString('hex')}`;
      const first = await create(seller.testKey, 'CARD', { amount: 1000, card: card('4000000000000002') }, { 'Idempotency-Key': key });
      const retry = await create(seller.testKey, 'CARD', { amount: 1000, card: card('4000000000000002') }, { 'Idempotency-Key': key });
      expectError(first, 402, 'CARD_DECLINED');
      expectError(retry, 402, 'CARD_DECLINED');
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect(await chargeRows(seller.storeId)).toHaveLength(1);
    });
  });
});
