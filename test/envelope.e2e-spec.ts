import { sql } from 'kysely';
import { bearer } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

describe('Response envelope and HTTP conventions (API.md §1.1)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('wraps success as {data, success: true, error: null}', async () => {
    const response = await app.http().get('/v1/stores/list').set(bearer(app.defaultKey)).expect(200);
    expect(response.body).toEqual({ data: expect.any(Object), success: true, error: null });
    expect(response.headers['content-type']).toMatch(/application\/json/);
  });

  it('answers an unknown route with NOT_FOUND in the envelope', async () => {
    const response = await app.http().get('/v1/nothing-here').expect(404);
    expect(response.body).toEqual({ data: null, success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('answers malformed JSON with VALIDATION_ERROR', async () => {
    const response = await app
      .http()
      .post('/v1/auth/register')
      .set('Content-Type', 'application/json')
      .send('{"name": "x",')
      .expect(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.success).toBe(false);
    expect(response.body.data).toBeNull();
  });

  it('rejects unknown fields with a detail naming the field', async () => {
    const response = await app
      .http()
      .post('/v1/api-keys/create')
      .set(bearer(app.defaultKey))
      .send({ name: 'k', permissions: ['*'], colour: 'blue' })
      .expect(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details).toContainEqual({ field: 'colour', message: expect.any(String) });
  });

  it('names nested fields with their path', async () => {
    const response = await app
      .http()
      .post('/v1/api-keys/create')
      .set(bearer(app.defaultKey))
      .send({ name: 'k', permissions: ['*', 5] })
      .expect(400);
    expect(response.body.error.details[0].field).toMatch(/^permissions/);
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), permissions: ['*'] });
    const response = await app
      .http()
      .post('/v1/api-keys/create')
      .set(bearer(app.defaultKey))
      .set('Content-Type', 'application/json')
      .send(big)
      .expect(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('accepts a body just under the limit (parsed, then validated)', async () => {
    const response = await app
      .http()
      .post('/v1/api-keys/create')
      .set(bearer(app.defaultKey))
      .send({ name: 'x'.repeat(1000 * 1000), permissions: ['*'] })
      .expect(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details[0].field).toBe('name');
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const echoed = await app.http().get('/v1/stores/list').set('X-Request-Id', 'client-123:abc.def_1').set(bearer(app.defaultKey));
    expect(echoed.headers['x-request-id']).toBe('client-123:abc.def_1');
    const replaced = await app.http().get('/v1/stores/list').set('X-Request-Id', 'bad id with spaces').set(bearer(app.defaultKey));
    expect(replaced.headers['x-request-id']).toMatch(/^req_[0-9A-Z]{26}$/);
    const tooLong = await app.http().get('/v1/nothing').set('X-Request-Id', 'a'.repeat(129));
    expect(tooLong.headers['x-request-id']).toMatch(/^req_/);
    const generated = await app.http().get('/v1/nothing');
    expect(generated.headers['x-request-id']).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(generated.headers['x-request-id']).not.toBe(replaced.headers['x-request-id']);
  });

  it('answers an unexpected failure with 500 INTERNAL and no internals', async () => {
    const broken = await startTestApp();
    try {
      await sql`DROP TABLE ledger_entries`.execute(broken.database.db);
      const response = await broken.http().get('/v1/stores/transactions').set(bearer(broken.defaultKey)).expect(500);
      expect(response.body).toEqual({
        data: null,
        success: false,
        error: { code: 'INTERNAL', message: 'Internal server error' },
      });
      expect(JSON.stringify(response.body)).not.toMatch(/ledger|select|sqlite|relation|stack/i);
      expect(response.headers['x-request-id']).toMatch(/^req_/);
    } finally {
      await broken.close();
    }
  });
});
