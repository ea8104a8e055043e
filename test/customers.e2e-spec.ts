import { expectError, expectOk, expectValidationField, manyKeys } from './support/assertions';
import { bearer, createKey, registerMerchant, RegisteredMerchant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/** Customers — API.md §8.1, with §1 (envelope, metadata, lists, idempotency) and §2.4 (permissions). */

const CUSTOMER_FIELDS = ['cellphone', 'createdAt', 'devMode', 'email', 'id', 'metadata', 'name', 'taxId', 'updatedAt', 'zipCode'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CUSTOMER_ID = /^cust_[0-9A-Z]{26}$/;
const MISSING_ID = 'cust_01JD2Z3M4N5P6Q7R8S9T0V1W2X';

// Hand-checked valid tax ids (see src/common/validation/tax-id.spec.ts for the arithmetic).
const CPF_A = { formatted: '529.982.247-25', bare: '52998224725' };
const CPF_B = { formatted: '111.444.777-35', bare: '11144477735' };
const CNPJ_NUMERIC = { formatted: '11.222.333/0001-81', bare: '11222333000181' };
const CNPJ_ALNUM = { formatted: '12.abc.345/01de-35', bare: '12ABC34501DE35' };

/** A valid CPF from 9 base digits, by the textbook mod-11 rule (for fixtures that must not collide). */
function cpfFrom(base9: string): string {
  const digits = base9.split('').map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((total, digit, i) => total + digit * (length + 1 - i), 0);
    digits.push(((sum * 10) % 11) % 10);
  }
  return digits.join('');
}
const punctuateCpf = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
let cpfCounter = 0;
const freshCpf = () => {
  cpfCounter += 1;
  return cpfFrom(`${(Date.now() % 100000).toString().padStart(5, '0')}${String(cpfCounter).padStart(4, '0')}`);
};

interface Customer {
  id: string;
  name: string | null;
  email: string;
  cellphone: string | null;
  taxId: string | null;
  zipCode: string | null;
  metadata: Record<string, string>;
  devMode: boolean;
  createdAt: string;
  updatedAt: string;
}

describe('Customers — /v1/customers (API.md §8.1)', () => {
  let app: TestApp;
  let merchant: RegisteredMerchant;
  let rival: RegisteredMerchant;
  let liveKey: string;

  const http = () => app.http();
  const post = (token: string, route: string, body: unknown) =>
    http().post(`/v1/customers/${route}`).set(bearer(token)).send(body as object);
  const get = (token: string, id: string) => http().get('/v1/customers/get').query({ id }).set(bearer(token));
  const list = (token: string, query: Record<string, string | number> = {}) =>
    http().get('/v1/customers/list').query(query).set(bearer(token));
  const create = async (token: string, body: Record<string, unknown>): Promise<Customer> => {
    const response = await post(token, 'create', body);
    expectOk(response, 201);
    return response.body.data;
  };
  const rowsWhere = (column: 'email' | 'tax_id', value: string) =>
    app.database.db.selectFrom('customers').selectAll().where(column, '=', value).execute();
  const listAll = async (token: string, query: Record<string, string> = {}): Promise<Customer[]> => {
    const items: Customer[] = [];
    let after: string | null = null;
    do {
      const response = await list(token, { ...query, limit: 100, ...(after ? { after } : {}) });
      expectOk(response);
      items.push(...response.body.data.items);
      after = response.body.data.next;
    } while (after !== null);
    return items;
  };
  let emailCounter = 0;
  const email = (label = 'cliente') => {
    emailCounter += 1;
    return `${label}-${emailCounter}-${Date.now()}@example.com`;
  };

  beforeAll(async () => {
    app = await startTestApp();
    merchant = await registerMerchant(app, 'Loja A');
    rival = await registerMerchant(app, 'Loja B');
    liveKey = (await createKey(app, merchant.session, { mode: 'live', permissions: ['*'] })).key;
  });
  afterAll(() => app.close());

  describe('create', () => {
    it('answers 201 with the whole customer, normalised, and devMode true for a test key', async () => {
      const response = await post(merchant.testKey, 'create', {
        email: '  Maria.Silva@Example.COM ',
        name: 'Maria Silva',
        cellphone: '+55 11 91234-5678',
        taxId: CPF_A.formatted,
        zipCode: '01310-100',
        metadata: { crmId: '42' },
      });
      expectOk(response, 201);
      const customer: Customer = response.body.data;
      expect(Object.keys(customer).sort()).toEqual(CUSTOMER_FIELDS);
      expect(customer).toEqual({
        id: expect.stringMatching(CUSTOMER_ID),
        name: 'Maria Silva',
        email: 'maria.silva@example.com',
        cellphone: '+55 11 91234-5678',
        taxId: CPF_A.bare,
        zipCode: '01310100',
        metadata: { crmId: '42' },
        devMode: true,
        createdAt: expect.stringMatching(ISO),
        updatedAt: customer.createdAt,
      });
      expect(Math.abs(Date.parse(customer.createdAt) - Date.now())).toBeLessThan(60_000);

      const fetched = await get(merchant.testKey, customer.id);
      expectOk(fetched);
      expect(fetched.body.data).toEqual(customer);
    });

    it('fills optional fields with null and metadata with {}', async () => {
      const address = email('minimal');
      const customer = await create(merchant.testKey, { email: address });
      expect(customer).toEqual({
        id: expect.stringMatching(CUSTOMER_ID),
        name: null,
        email: address,
        cellphone: null,
        taxId: null,
        zipCode: null,
        metadata: {},
        devMode: true,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
    });

    it('marks a customer created with a live key devMode false', async () => {
      const customer = await create(liveKey, { email: email('live') });
      expect(customer.devMode).toBe(false);
      expectOk(await get(liveKey, customer.id));
    });

    it.each([
      ['not an email', 'not-an-email'],
      ['a missing domain', 'maria@'],
      ['an empty string', ''],
      ['a number', 42],
      ['null', null],
    ])('rejects email as %s with 400 on field email', async (_label, value) => {
      expectValidationField(await post(merchant.testKey, 'create', { email: value }), 'email');
    });

    it('requires an email', async () => {
      expectValidationField(await post(merchant.testKey, 'create', { name: 'Sem email' }), 'email');
    });

    it.each([
      ['a CPF without punctuation', CPF_B.bare, CPF_B.bare],
      ['a numeric CNPJ with punctuation', CNPJ_NUMERIC.formatted, CNPJ_NUMERIC.bare],
      ['an alphanumeric CNPJ in lower case', CNPJ_ALNUM.formatted, CNPJ_ALNUM.bare],
    ])('accepts %s and stores it normalised', async (_label, input, stored) => {
      const customer = await create(merchant.testKey, { email: email('taxid'), taxId: input });
      expect(customer.taxId).toBe(stored);
      const rows = await rowsWhere('tax_id', stored);
      expect(rows.map((row) => row.id)).toEqual([customer.id]);
    });

    it.each([
      ['a CPF with a wrong check digit', '529.982.247-26'],
      ['a repeated-digit CPF', '111.111.111-11'],
      ['a CNPJ with wrong check digits', '11.222.333/0001-82'],
      ['an alphanumeric CNPJ with wrong check digits', '12.ABC.345/01DE-36'],
      ['letters in the check-digit positions', '12.ABC.345/01DE-3A'],
      ['a 10-digit number', '5299822472'],
      ['a 12-digit number', '529982247250'],
    ])('rejects %s with 400 VALIDATION_ERROR on field taxId and creates nothing', async (_label, taxId) => {
      const address = email('badtax');
      const response = await post(merchant.testKey, 'create', { email: address, taxId });
      expectValidationField(response, 'taxId');
      expect(await rowsWhere('email', address)).toEqual([]);
    });

    it('returns the existing customer (200, same id) for a taxId the store already has, in other punctuation', async () => {
      const cpf = freshCpf();
      const first = await post(merchant.testKey, 'create', { email: email('first'), name: 'Primeiro', taxId: punctuateCpf(cpf) });
      expectOk(first, 201);
      const again = await post(merchant.testKey, 'create', { email: email('second'), name: 'Segundo', taxId: cpf });
      expectOk(again, 200);
      expect(again.body.data).toEqual(first.body.data);
      expect((await rowsWhere('tax_id', cpf)).length).toBe(1);
    });

    it('creates exactly one customer when five creates with the same new taxId race', async () => {
      const cpf = freshCpf();
      const responses = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          post(merchant.testKey, 'create', { email: email(`race${i}`), taxId: i % 2 === 0 ? cpf : punctuateCpf(cpf) }),
        ),
      );
      const rows = await rowsWhere('tax_id', cpf);
      expect(rows.length).toBe(1);
      for (const response of responses) {
        expect(response.body.success).toBe(true);
        expect(response.body.data.id).toBe(rows[0].id);
      }
      expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 201]);
    });

    it('keeps taxIds apart per mode and per merchant', async () => {
      const cpf = freshCpf();
      const inTest = await create(merchant.testKey, { email: email('mode-test'), taxId: cpf });
      const inLive = await create(liveKey, { email: email('mode-live'), taxId: cpf });
      const inRival = await create(rival.testKey, { email: email('rival'), taxId: cpf });
      expect(new Set([inTest.id, inLive.id, inRival.id]).size).toBe(3);
      expect((await rowsWhere('tax_id', cpf)).length).toBe(3);
    });

    it('creates a new customer for the taxId of a deleted one', async () => {
      const cpf = freshCpf();
      const old = await create(merchant.testKey, { email: email('old'), taxId: cpf });
      expectOk(await post(merchant.testKey, 'delete', { id: old.id }));
      const response = await post(merchant.testKey, 'create', { email: email('new'), taxId: cpf });
      expectOk(response, 201);
      expect(response.body.data.id).not.toBe(old.id);
    });

    it.each([
      ['a bad cellphone', { cellphone: 'call me' }, 'cellphone'],
      ['a bad zipCode', { zipCode: '1234' }, 'zipCode'],
      ['an empty name', { name: '' }, 'name'],
      ['a name over 200 chars', { name: 'n'.repeat(201) }, 'name'],
      ['a taxId that is not a string', { taxId: 52998224725 }, 'taxId'],
    ])('rejects %s with 400 on that field', async (_label, fields, field) => {
      expectValidationField(await post(merchant.testKey, 'create', { email: email('fields'), ...fields }), field);
    });

    it('rejects an unknown body field', async () => {
      const address = email('unknown');
      const response = await post(merchant.testKey, 'create', { email: address, nickname: 'Zé' });
      expectValidationField(response, 'nickname');
      expect(await rowsWhere('email', address)).toEqual([]);
    });

    it('accepts metadata at the limits (50 keys, key 40, value 500)', async () => {
      const customer = await create(merchant.testKey, { email: email('meta'), metadata: manyKeys(50) });
      expect(Object.keys(customer.metadata).length).toBe(50);
      const edge = { ['k'.repeat(40)]: 'v'.repeat(500) };
      expect((await create(merchant.testKey, { email: email('meta'), metadata: edge })).metadata).toEqual(edge);
    });

    it.each([
      ['51 keys', manyKeys(51)],
      ['a 41-char key', { ['k'.repeat(41)]: 'v' }],
      ['a 501-char value', { note: 'v'.repeat(501) }],
      ['a number value', { count: 1 }],
      ['a nested object', { address: { city: 'Recife' } }],
      ['an array value', { tags: ['a'] }],
      ['an array', ['a']],
      ['a string', 'meta'],
    ])('rejects metadata with %s (400, field metadata)', async (_label, metadata) => {
      const address = email('badmeta');
      expectValidationField(await post(merchant.testKey, 'create', { email: address, metadata }), 'metadata');
      expect(await rowsWhere('email', address)).toEqual([]);
    });

    it('replays an Idempotency-Key: same status and body, header Idempotent-Replayed, one row', async () => {
      const address = email('idem');
      const key = `idem-${Date.now()}-customers`;
      const first = await post(merchant.testKey, 'create', { email: address, name: 'Idem' }).set('Idempotency-Key', key);
      expectOk(first, 201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const second = await post(merchant.testKey, 'create', { name: 'Idem', email: address }).set('Idempotency-Key', key);
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      expect((await rowsWhere('email', address)).length).toBe(1);

      const reused = await post(merchant.testKey, 'create', { email: email('other'), name: 'Idem' }).set('Idempotency-Key', key);
      expectError(reused, 422, 'IDEMPOTENCY_KEY_REUSED');
    });

    it('replays the 200 of a create that found an existing taxId with the same status', async () => {
      const cpf = freshCpf();
      const existing = await create(merchant.testKey, { email: email('idem-existing'), taxId: cpf });
      const key = `idem-${Date.now()}-existing`;
      const fields = { email: email('idem-dup'), taxId: punctuateCpf(cpf) };
      const first = await post(merchant.testKey, 'create', fields).set('Idempotency-Key', key);
      expectOk(first, 200);
      expect(first.body.data.id).toBe(existing.id);
      const second = await post(merchant.testKey, 'create', fields).set('Idempotency-Key', key);
      expect(second.status).toBe(200);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      expect((await rowsWhere('tax_id', cpf)).length).toBe(1);
    });
  });

  describe('get', () => {
    it('answers an unknown id with 404 NOT_FOUND and a missing id with 400', async () => {
      expectError(await get(merchant.testKey, MISSING_ID), 404, 'NOT_FOUND');
      expectError(await get(merchant.testKey, 'nonsense'), 404, 'NOT_FOUND');
      expectValidationField(await http().get('/v1/customers/get').set(bearer(merchant.testKey)), 'id');
    });
  });

  describe('update', () => {
    it('changes the given fields only, normalising email, taxId and zipCode', async () => {
      const customer = await create(merchant.testKey, {
        email: email('upd'),
        name: 'Antes',
        cellphone: '11 99999-0000',
        metadata: { a: '1' },
      });
      const cpf = freshCpf();
      const response = await post(merchant.testKey, 'update', {
        id: customer.id,
        email: 'Novo.Email@Example.com',
        taxId: punctuateCpf(cpf),
        zipCode: '20040-002',
        metadata: { b: '2' },
      });
      expectOk(response);
      expect(response.body.data).toEqual({
        ...customer,
        email: 'novo.email@example.com',
        taxId: cpf,
        zipCode: '20040002',
        metadata: { b: '2' },
        updatedAt: expect.stringMatching(ISO),
      });
      expect(response.body.data.updatedAt >= customer.updatedAt).toBe(true);
      const fetched = await get(merchant.testKey, customer.id);
      expect(fetched.body.data).toEqual(response.body.data);
    });

    it('clears nullable fields with null', async () => {
      const customer = await create(merchant.testKey, { email: email('clear'), name: 'Nome', taxId: freshCpf(), cellphone: '11 3333-4444' });
      const response = await post(merchant.testKey, 'update', { id: customer.id, name: null, taxId: null, cellphone: null });
      expectOk(response);
      expect(response.body.data).toMatchObject({ id: customer.id, name: null, taxId: null, cellphone: null, email: customer.email });
    });

    it("answers 409 CONFLICT when moving to another customer's taxId, and leaves both unchanged", async () => {
      const holderCpf = freshCpf();
      const holder = await create(merchant.testKey, { email: email('holder'), taxId: holderCpf });
      const ownCpf = freshCpf();
      const other = await create(merchant.testKey, { email: email('mover'), taxId: ownCpf });
      expectError(await post(merchant.testKey, 'update', { id: other.id, taxId: punctuateCpf(holderCpf) }), 409, 'CONFLICT');
      expect((await get(merchant.testKey, other.id)).body.data.taxId).toBe(ownCpf);
      expect((await get(merchant.testKey, holder.id)).body.data.taxId).toBe(holderCpf);
    });

    it('accepts its own taxId in other punctuation', async () => {
      const cpf = freshCpf();
      const customer = await create(merchant.testKey, { email: email('own'), taxId: cpf });
      const response = await post(merchant.testKey, 'update', { id: customer.id, taxId: punctuateCpf(cpf), name: 'Mesmo' });
      expectOk(response);
      expect(response.body.data).toMatchObject({ taxId: cpf, name: 'Mesmo' });
    });

    it('rejects bad fields with 400 on the field', async () => {
      const customer = await create(merchant.testKey, { email: email('badupd') });
      expectValidationField(await post(merchant.testKey, 'update', { id: customer.id, taxId: '529.982.247-24' }), 'taxId');
      expectValidationField(await post(merchant.testKey, 'update', { id: customer.id, email: 'nope' }), 'email');
      expectValidationField(await post(merchant.testKey, 'update', { id: customer.id, email: null }), 'email');
      expectValidationField(await post(merchant.testKey, 'update', { id: customer.id, metadata: manyKeys(51) }), 'metadata');
      expectValidationField(await post(merchant.testKey, 'update', { id: customer.id, metadata: { deep: { x: '1' } } }), 'metadata');
      expectValidationField(await post(merchant.testKey, 'update', { id: customer.id, devMode: false }), 'devMode');
      expectValidationField(await post(merchant.testKey, 'update', { name: 'sem id' }), 'id');
      expect((await get(merchant.testKey, customer.id)).body.data).toEqual(customer);
    });

    it('answers an unknown id with 404', async () => {
      expectError(await post(merchant.testKey, 'update', { id: MISSING_ID, name: 'x' }), 404, 'NOT_FOUND');
    });
  });

  describe('list', () => {
    it('filters by email (case-insensitive) and by taxId (punctuation accepted)', async () => {
      const address = email('filter');
      const cpf = freshCpf();
      const withEmail = await create(merchant.testKey, { email: address });
      const withTaxId = await create(merchant.testKey, { email: email('filter-tax'), taxId: cpf });

      const byEmail = await list(merchant.testKey, { email: address.toUpperCase() });
      expectOk(byEmail);
      expect(byEmail.body.data.items).toEqual([withEmail]);

      const byTaxId = await list(merchant.testKey, { taxId: punctuateCpf(cpf) });
      expectOk(byTaxId);
      expect(byTaxId.body.data.items).toEqual([withTaxId]);

      const none = await list(merchant.testKey, { email: 'nobody@example.com' });
      expect(none.body.data).toEqual({ items: [], hasMore: false, next: null });
    });

    it('pages newest first with limit/after, without duplicates or gaps', async () => {
      const shop = await registerMerchant(app, 'Loja paginada');
      const created: Customer[] = [];
      for (let i = 0; i < 7; i += 1) created.push(await create(shop.testKey, { email: email(`page${i}`) }));
      const expected = created.map((customer) => customer.id).reverse();

      const seen: string[] = [];
      const hasMores: boolean[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const response = await list(shop.testKey, { limit: 3, ...(after ? { after } : {}) });
        expectOk(response);
        pages += 1;
        expect(response.body.data.items.length).toBeLessThanOrEqual(3);
        seen.push(...response.body.data.items.map((item: Customer) => item.id));
        hasMores.push(response.body.data.hasMore);
        after = response.body.data.next;
        expect(after === null).toBe(!response.body.data.hasMore);
      } while (after !== null && pages < 10);
      expect(pages).toBe(3);
      expect(hasMores).toEqual([true, true, false]);
      expect(seen).toEqual(expected);

      const firstPage = await list(shop.testKey);
      expect(firstPage.body.data.items.map((item: Customer) => item.id)).toEqual(expected);
      expect(firstPage.body.data.hasMore).toBe(false);
    });

    it('rejects a bad limit, a bad cursor and an unknown filter', async () => {
      expectValidationField(await list(merchant.testKey, { limit: 0 }), 'limit');
      expectValidationField(await list(merchant.testKey, { limit: 101 }), 'limit');
      expectValidationField(await list(merchant.testKey, { limit: 'ten' }), 'limit');
      expectValidationField(await list(merchant.testKey, { after: 'not-a-cursor' }), 'after');
      expectValidationField(await list(merchant.testKey, { colour: 'blue' }), 'colour');
    });
  });

  describe('delete', () => {
    it('removes the customer: get 404, gone from list, a second delete or update 404', async () => {
      const customer = await create(merchant.testKey, { email: email('gone'), taxId: freshCpf() });
      const response = await post(merchant.testKey, 'delete', { id: customer.id });
      expectOk(response);
      expect(response.body.data).toEqual({ id: customer.id, deleted: true });
      expectError(await get(merchant.testKey, customer.id), 404, 'NOT_FOUND');
      expect((await listAll(merchant.testKey)).map((item) => item.id)).not.toContain(customer.id);
      expect((await list(merchant.testKey, { taxId: customer.taxId! })).body.data.items).toEqual([]);
      expectError(await post(merchant.testKey, 'delete', { id: customer.id }), 404, 'NOT_FOUND');
      expectError(await post(merchant.testKey, 'update', { id: customer.id, name: 'x' }), 404, 'NOT_FOUND');
    });

    it('answers an unknown id with 404 and a missing id with 400', async () => {
      expectError(await post(merchant.testKey, 'delete', { id: MISSING_ID }), 404, 'NOT_FOUND');
      expectValidationField(await post(merchant.testKey, 'delete', {}), 'id');
    });
  });

  describe('permissions (API.md §2.4)', () => {
    let target: Customer;
    let readKey: string;
    let writeKey: string;
    let otherFamilyKey: string;

    beforeAll(async () => {
      target = await create(merchant.testKey, { email: email('perm') });
      readKey = (await createKey(app, merchant.session, { permissions: ['customers:read'] })).key;
      writeKey = (await createKey(app, merchant.session, { permissions: ['customers:write'] })).key;
      otherFamilyKey = (await createKey(app, merchant.session, { permissions: ['products:read', 'products:write', 'coupons:read', 'coupons:write'] }))
        .key;
    });

    it('customers:read lists and gets, but cannot create, update or delete', async () => {
      expectOk(await list(readKey));
      const got = await get(readKey, target.id);
      expectOk(got);
      expect(got.body.data.id).toBe(target.id);
      const address = email('readonly');
      expectError(await post(readKey, 'create', { email: address }), 403, 'FORBIDDEN');
      expectError(await post(readKey, 'update', { id: target.id, name: 'x' }), 403, 'FORBIDDEN');
      expectError(await post(readKey, 'delete', { id: target.id }), 403, 'FORBIDDEN');
      expect(await rowsWhere('email', address)).toEqual([]);
      expect((await get(merchant.testKey, target.id)).body.data).toEqual(target);
    });

    it('customers:write creates and updates, but cannot list or get (write does not imply read)', async () => {
      expectOk(await post(writeKey, 'create', { email: email('writeonly') }), 201);
      expectOk(await post(writeKey, 'update', { id: target.id, metadata: { by: 'write' } }));
      expectError(await list(writeKey), 403, 'FORBIDDEN');
      expectError(await get(writeKey, target.id), 403, 'FORBIDDEN');
    });

    it('a key of other families gets 403 on every route', async () => {
      expectError(await list(otherFamilyKey), 403, 'FORBIDDEN');
      expectError(await get(otherFamilyKey, target.id), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'create', { email: email('other') }), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'update', { id: target.id, name: 'x' }), 403, 'FORBIDDEN');
      expectError(await post(otherFamilyKey, 'delete', { id: target.id }), 403, 'FORBIDDEN');
    });

    it('no key, an unknown key or a session is 401 UNAUTHENTICATED', async () => {
      expectError(await http().get('/v1/customers/list'), 401, 'UNAUTHENTICATED');
      expectError(await http().get('/v1/customers/get').query({ id: target.id }), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/customers/create').send({ email: email('anon') }), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/customers/update').send({ id: target.id }), 401, 'UNAUTHENTICATED');
      expectError(await http().post('/v1/customers/delete').send({ id: target.id }), 401, 'UNAUTHENTICATED');
      expectError(await list(`sk_test_${'0'.repeat(48)}`), 401, 'UNAUTHENTICATED');
      expectError(await list(merchant.session), 401, 'UNAUTHENTICATED');
    });
  });

  describe('isolation', () => {
    let target: Customer;

    beforeAll(async () => {
      target = await create(merchant.testKey, { email: email('isolated'), taxId: freshCpf() });
    });

    it("hides a merchant's customers from another merchant (404, not listed)", async () => {
      expectError(await get(rival.testKey, target.id), 404, 'NOT_FOUND');
      expectError(await post(rival.testKey, 'update', { id: target.id, name: 'hijack' }), 404, 'NOT_FOUND');
      expectError(await post(rival.testKey, 'delete', { id: target.id }), 404, 'NOT_FOUND');
      expect((await listAll(rival.testKey)).map((item) => item.id)).not.toContain(target.id);
      expect((await list(rival.testKey, { taxId: target.taxId! })).body.data.items).toEqual([]);
      expect((await get(merchant.testKey, target.id)).body.data).toEqual(target);
    });

    it('hides test-mode customers from the live key (404, not listed)', async () => {
      expectError(await get(liveKey, target.id), 404, 'NOT_FOUND');
      expectError(await post(liveKey, 'update', { id: target.id, name: 'live' }), 404, 'NOT_FOUND');
      expectError(await post(liveKey, 'delete', { id: target.id }), 404, 'NOT_FOUND');
      const liveItems = await listAll(liveKey);
      expect(liveItems.map((item) => item.id)).not.toContain(target.id);
      expect(liveItems.length).toBeGreaterThan(0);
      for (const item of liveItems) expect(item.devMode).toBe(false);
      expect((await get(merchant.testKey, target.id)).body.data).toEqual(target);
    });
  });
});
