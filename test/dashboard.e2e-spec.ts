import request from 'supertest';
import { startTestApp, TestApp } from './support/test-app';

/** The dashboard over plain HTTP (the browser suites drive the same pages in Chromium). */
describe('dashboard pages over HTTP (API.md §14)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const cookieValue = (setCookie: string[] | undefined, name: string) =>
    (setCookie ?? []).find((cookie) => cookie.startsWith(`${name}=`))?.split(';')[0];

  it('shows a new secret once: a client that replays the flash cookie does not see it again', async () => {
    const form = await request(app.url).get('/register').expect(200);
    const csrfCookie = cookieValue(form.headers['set-cookie'] as unknown as string[], 'csrf')!;
    const token = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const registered = await request(app.url)
      .post('/register')
      .set('Cookie', csrfCookie)
      .type('form')
      .send({ _csrf: token, name: 'Replay', email: `replay-${Date.now()}@example.com`, password: 'correct horse battery' })
      .expect(303);
    expect(registered.headers.location).toBe('/dashboard');
    const cookies = registered.headers['set-cookie'] as unknown as string[];
    const session = cookieValue(cookies, 'sess')!;
    const flash = cookieValue(cookies, 'flash')!;
    expect(session).toMatch(/^sess=sess_/);
    expect(cookies.find((cookie) => cookie.startsWith('sess='))).toMatch(/HttpOnly/i);
    expect(cookies.find((cookie) => cookie.startsWith('sess='))).toMatch(/SameSite=Lax/i);

    const first = await request(app.url).get('/dashboard').set('Cookie', [session, flash].join('; ')).expect(200);
    const secret = /id="new-key-value"[^>]* value="(sk_test_[A-Za-z0-9]+)"/.exec(first.text)?.[1];
    expect(secret).toBeDefined();
    expect(first.text).toContain('you will not see this key again');

    // The same cookie sent again (a replaying client): the page no longer shows the secret.
    const replay = await request(app.url).get('/dashboard').set('Cookie', [session, flash].join('; ')).expect(200);
    expect(replay.text).not.toContain(secret!);
    expect(replay.text).not.toContain('new-key-value');
    // And the secret is a working key.
    await request(app.url).get('/v1/stores/list').set('Authorization', `Bearer ${secret}`).expect(200);
  });

  it('sends a visitor without a session to /login, and answers an unknown page with an HTML 404', async () => {
    const redirected = await request(app.url).get('/dashboard/api-keys').expect(302);
    expect(redirected.headers.location).toBe('/login');
    const missing = await request(app.url).get('/no-such-page').expect(404);
    expect(missing.headers['content-type']).toMatch(/text\/html/);
  });
});
