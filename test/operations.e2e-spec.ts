import { ROUTE_ARGS_METADATA, PATH_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { AUTH_REQUIREMENT, AuthRequirement, Public } from '../src/common/auth/auth.decorators';
import { DEFAULT_MERCHANT_EMAIL } from '../src/modules/auth/default-account.service';
import { bearer, uniqueEmail } from './support/factories';
import { createTestDatabase, startTestApp, TestApp, TestDatabase } from './support/test-app';

/** API.md §15 (operations), §2.3 (default key) and the process-level behaviour of the built service. */

// Processes start, apps boot and windows pass: more than Jest's default 5 s under a loaded machine.
jest.setTimeout(60_000);

const ROOT = join(__dirname, '..');
const MAIN = join(ROOT, 'dist', 'main.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const HTTP_METHODS = new Map<number, string>([
  [RequestMethod.GET, 'get'],
  [RequestMethod.POST, 'post'],
  [RequestMethod.PUT, 'put'],
  [RequestMethod.DELETE, 'delete'],
  [RequestMethod.PATCH, 'patch'],
  [RequestMethod.ALL, 'all'],
  [RequestMethod.OPTIONS, 'options'],
  [RequestMethod.HEAD, 'head'],
]);

interface ControllerRoute {
  controller: string;
  handler: string;
  method: string;
  path: string;
  takesBody: boolean;
  requirement: AuthRequirement | undefined;
}

const joinPath = (...parts: string[]) =>
  '/' +
  parts
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter((part) => part.length > 0)
    .join('/');

const asArray = (value: unknown): string[] => (Array.isArray(value) ? value : [value ?? '']) as string[];

/** Every route handler of the given controller classes, with the auth requirement the global guard would read. */
function routesOf(controllers: Array<{ name: string; prototype: object }>, reflector: Reflector): ControllerRoute[] {
  const scanner = new MetadataScanner();
  const routes: ControllerRoute[] = [];
  for (const controller of controllers) {
    const prefixes = asArray(Reflect.getMetadata(PATH_METADATA, controller));
    for (const name of scanner.getAllMethodNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name] as object;
      const methodPaths = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
      if (methodPaths === undefined) continue;
      const method = HTTP_METHODS.get(Reflect.getMetadata(METHOD_METADATA, handler) as number) ?? 'unknown';
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, unknown>;
      const takesBody = Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
      const requirement = reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_REQUIREMENT, [
        handler as () => void,
        controller as new () => unknown,
      ]);
      for (const prefix of prefixes) {
        for (const path of asArray(methodPaths)) {
          routes.push({ controller: controller.name, handler: name, method, path: joinPath(prefix, path), takesBody, requirement });
        }
      }
    }
  }
  return routes;
}

function controllersOf(app: TestApp): Array<{ name: string; prototype: object }> {
  const discovery = new DiscoveryService(app.app.get(ModulesContainer));
  return discovery
    .getControllers()
    .map((wrapper) => wrapper.metatype as unknown as { name: string; prototype: object } | null)
    .filter((metatype): metatype is { name: string; prototype: object } => metatype !== null && metatype !== undefined);
}

/** `METHOD /path` of every route Express actually serves (Express 5 router stack). */
function servedRoutes(app: TestApp): string[] {
  const express = app.app.getHttpAdapter().getInstance() as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  const served: string[] = [];
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') served.push(`${method.toUpperCase()} ${layer.route.path}`);
      if (on && method === '_all') served.push(`ALL ${layer.route.path}`);
    }
  }
  return served;
}

const KNOWN_KINDS = ['public', 'api-key', 'session', 'key-manager'];

/** The routes whose auth requirement is missing or not one of the known kinds. */
const routesWithoutRequirement = (routes: ControllerRoute[]) =>
  routes
    .filter((route) => route.requirement === undefined || !KNOWN_KINDS.includes(route.requirement.kind))
    .map((route) => `${route.method.toUpperCase()} ${route.path} (${route.controller}.${route.handler})`);

describe('Operations (API.md §15)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  describe('probes', () => {
    it('answers GET /health with 200', async () => {
      const response = await app.http().get('/health');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ok' });
    });

    it('answers GET /ready with 200 while the database answers', async () => {
      const response = await app.http().get('/ready');
      expect(response.status).toBe(200);
      expect(response.body.status).toBe('ready');
    });

    it('answers GET /ready with 503 once the database is gone, while /health stays 200', async () => {
      const broken = await startTestApp();
      try {
        await broken.http().get('/ready').expect(200);
        await broken.database.db.destroy();
        const ready = await broken.http().get('/ready');
        expect(ready.status).toBe(503);
        expect(ready.body.status).not.toBe('ready');
        const health = await broken.http().get('/health');
        expect(health.status).toBe(200);
      } finally {
        // Destroying the Kysely instance a second time (in the app's shutdown) is a no-op.
        await broken.close();
      }
    });
  });

  describe('API documentation', () => {
    let document: {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
      components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
    };
    let routes: ControllerRoute[];

    beforeAll(async () => {
      const response = await app.http().get('/openapi.json').expect(200);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      document = response.body;
      routes = routesOf(controllersOf(app), app.app.get(Reflector)).filter((route) => route.path.startsWith('/v1/'));
    });

    /** Resolves a local $ref (#/components/schemas/X) once. */
    const resolve = (schema: { $ref?: string } & Record<string, unknown>) => {
      if (typeof schema.$ref !== 'string') return schema;
      const name = schema.$ref.replace('#/components/schemas/', '');
      return document.components?.schemas?.[name] as (Record<string, unknown> & { properties?: object }) | undefined;
    };

    it('is an OpenAPI 3 document', () => {
      expect(document.openapi).toMatch(/^3\.\d+\.\d+$/);
      expect(typeof document.paths).toBe('object');
    });

    it('lists exactly the /v1 routes the app serves', () => {
      const served = servedRoutes(app)
        .filter((route) => route.split(' ')[1].startsWith('/v1/'))
        .sort();
      const documented = Object.entries(document.paths)
        .filter(([path]) => path.startsWith('/v1/'))
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
        .sort();
      // Guards against comparing two empty lists: the seed routes must be among them.
      expect(served).toEqual(
        expect.arrayContaining(['GET /v1/stores/list', 'GET /v1/fees/calculate', 'POST /v1/auth/register', 'POST /v1/api-keys/create']),
      );
      expect(documented).toEqual(served);
      // The controllers Nest discovered declare the same routes Express serves.
      expect(routes.map((route) => `${route.method.toUpperCase()} ${route.path}`).sort()).toEqual(served);
    });

    it('gives every /v1 operation a 2xx JSON response schema', () => {
      const missing: string[] = [];
      for (const [path, operations] of Object.entries(document.paths)) {
        if (!path.startsWith('/v1/')) continue;
        for (const [method, operation] of Object.entries(operations)) {
          const success = Object.entries(operation.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
          const schema = success
            .map(([, response]) => (response as { content?: Record<string, { schema?: Record<string, unknown> }> }).content)
            .map((content) => content?.['application/json']?.schema)
            .find((candidate) => candidate !== undefined);
          const properties = schema ? (resolve(schema) as { properties?: { data?: unknown } } | undefined)?.properties : undefined;
          if (!properties?.data) missing.push(`${method.toUpperCase()} ${path}`);
        }
      }
      expect(missing).toEqual([]);
    });

    it('gives every POST route that takes a body a request body schema', () => {
      const withBody = routes.filter((route) => route.method === 'post' && route.takesBody);
      expect(withBody.map((route) => route.path)).toEqual(expect.arrayContaining(['/v1/auth/register', '/v1/api-keys/create']));
      const missing: string[] = [];
      for (const route of withBody) {
        const body = document.paths[route.path]?.post?.requestBody as
          | { content?: Record<string, { schema?: Record<string, unknown> }> }
          | undefined;
        const schema = body?.content?.['application/json']?.schema;
        const resolved = schema ? (resolve(schema) as { properties?: object; maxProperties?: number } | undefined) : undefined;
        const properties = resolved?.properties;
        // A route that takes no fields documents exactly that (an object with maxProperties 0).
        const documentedEmpty = resolved?.maxProperties === 0;
        if (!documentedEmpty && (!properties || Object.keys(properties).length === 0)) missing.push(`POST ${route.path}`);
      }
      expect(missing).toEqual([]);
    });

    it('serves the Swagger UI at /docs', async () => {
      const response = await app.http().get('/docs').redirects(2);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.text).toMatch(/swagger-ui/i);
    });
  });

  describe('authentication requirements', () => {
    it('has every controller route declare exactly one known auth requirement', () => {
      const routes = routesOf(controllersOf(app), app.app.get(Reflector));
      expect(routes.map((route) => `${route.method.toUpperCase()} ${route.path}`)).toEqual(
        expect.arrayContaining(['GET /health', 'GET /ready', 'GET /v1/stores/list', 'POST /v1/auth/login']),
      );
      expect(routesWithoutRequirement(routes)).toEqual([]);
    });

    it('would report a route that declares none (the check itself can fail)', () => {
      class Undeclared {
        handler() {
          return null;
        }
      }
      Reflect.defineMetadata(PATH_METADATA, 'v1/undeclared', Undeclared);
      Reflect.defineMetadata(PATH_METADATA, 'x', Undeclared.prototype.handler);
      Reflect.defineMetadata(METHOD_METADATA, RequestMethod.GET, Undeclared.prototype.handler);
      class Declared extends Undeclared {}
      Public()(Declared);
      const report = routesWithoutRequirement(routesOf([Undeclared, Declared], new Reflector()));
      expect(report).toEqual(['GET /v1/undeclared/x (Undeclared.handler)']);
    });
  });
});

describe('Default API key (API.md §2.3)', () => {
  const keyFile = (app: TestApp) => join(app.config.dataDir, 'default-api-key');

  async function defaultMerchants(app: TestApp) {
    return app.database.db.selectFrom('merchants').select(['id', 'email']).where('email', '=', DEFAULT_MERCHANT_EMAIL).execute();
  }

  it('writes DEFAULT_API_KEY to $DATA_DIR/default-api-key (0600) on first start, with access *', async () => {
    const app = await startTestApp();
    try {
      const file = keyFile(app);
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8').trim()).toBe(app.defaultKey);

      const list = await app.http().get('/v1/api-keys/list').set(bearer(app.defaultKey));
      expect(list.status).toBe(200);
      expect(list.body.data.items).toEqual([
        expect.objectContaining({ mode: 'test', permissions: ['*'], prefix: app.defaultKey.slice(0, 12), last4: app.defaultKey.slice(-4) }),
      ]);
      expect(await defaultMerchants(app)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('does not create a second default merchant nor change the key on a second start', async () => {
    const database = await createTestDatabase();
    try {
      const first = await startTestApp({ database });
      const originalKey = first.defaultKey;
      const file = keyFile(first);
      await first.close();

      const otherKey = `sk_test_${randomBytes(20).toString('hex')}`;
      const second = await startTestApp({ database, env: { DEFAULT_API_KEY: otherKey } });
      try {
        expect(await defaultMerchants(second)).toHaveLength(1);
        expect(await second.database.db.selectFrom('merchants').select('id').execute()).toHaveLength(1);
        expect(readFileSync(file, 'utf8').trim()).toBe(originalKey);
        await second.http().get('/v1/api-keys/list').set(bearer(originalKey)).expect(200);
        const refused = await second.http().get('/v1/api-keys/list').set(bearer(otherKey));
        expect(refused.status).toBe(401);
        expect(refused.body.error.code).toBe('UNAUTHENTICATED');
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('generates a random sk_test_ key and writes it when DEFAULT_API_KEY is not set', async () => {
    const app = await startTestApp({ env: { DEFAULT_API_KEY: undefined } });
    try {
      const file = keyFile(app);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const generated = readFileSync(file, 'utf8').trim();
      expect(generated).toMatch(/^sk_test_[A-Za-z0-9]{24,}$/);
      const list = await app.http().get('/v1/api-keys/list').set(bearer(generated));
      expect(list.status).toBe(200);
      expect(list.body.data.items).toEqual([expect.objectContaining({ permissions: ['*'], last4: generated.slice(-4) })]);
    } finally {
      await app.close();
    }
  });
});

/* ------------------------------------------------------------------------------------------------ */
/* The built service as a real process: node dist/main.js                                           */
/* ------------------------------------------------------------------------------------------------ */

interface ServiceProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const running = new Set<ChildProcess>();

function spawnService(env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    // Only what the test passes: nothing of the outer environment may configure the service.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls GET /health until the service answers; fails early if the process dies. */
async function waitUntilUp(service: ServiceProcess, url: string): Promise<void> {
  let exited = false;
  void service.exited.then(() => (exited = true));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`service exited during start:\n${service.stderr()}\n${service.stdout()}`);
    const status = await request(url)
      .get('/health')
      .timeout(1000)
      .then((response) => response.status)
      .catch(() => 0);
    if (status === 200) return;
    await sleep(100);
  }
  throw new Error(`service did not come up:\n${service.stderr()}\n${service.stdout()}`);
}

/** A POST whose sending and answer can be awaited separately (for requests in flight during SIGTERM). */
function postJson(url: string, path: string, body: unknown) {
  const payload = JSON.stringify(body);
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  let settled = false;
  const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = httpRequest(
      `${url}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          settled = true;
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      settled = true;
      // Reported as a result, so the assertion names what happened instead of failing on the first error.
      resolve({ status: 0, body: { networkError: error.code ?? error.message } });
    });
    req.on('finish', () => markSent());
    req.end(payload);
  });
  return { sent, answered, isSettled: () => settled };
}

describe('The built service as a process (API.md §15)', () => {
  const databases: TestDatabase[] = [];

  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npx tsc -p tsconfig.build.json)`);
  });

  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    for (const database of databases) await database.drop();
  });

  async function database(): Promise<TestDatabase> {
    const created = await createTestDatabase();
    databases.push(created);
    return created;
  }

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['RATE_LIMIT_MAX', '-1'],
  ])('refuses to start with %s=%s: exit code 78 and stderr names the variable', async (name, value) => {
    const { dataDir } = await database();
    const service = spawnService({ DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: 'info', [name]: value });
    try {
      const { code } = await within(service.exited, 15_000, 'exit on bad configuration');
      expect(code).toBe(78);
      expect(service.stderr()).toContain(name);
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it('refuses to start when DATA_DIR cannot be a directory: exit code 78 and a message naming DATA_DIR', async () => {
    const { dataDir } = await database();
    const file = join(dataDir, 'a-file');
    writeFileSync(file, 'not a directory');
    const service = spawnService({ DATA_DIR: join(file, 'data'), PORT: String(await freePort()), LOG_LEVEL: 'info' });
    try {
      const { code } = await within(service.exited, 15_000, 'exit on bad DATA_DIR');
      expect(code).toBe(78);
      expect(service.stderr()).toContain('DATA_DIR must be a writable directory');
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it('writes JSON log lines with the request id and without credentials or passwords', async () => {
    const db = await database();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const service = spawnService({
      PORT: String(port),
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'info',
      PASSWORD_HASH_COST_LOG2: '15',
    });
    try {
      await waitUntilUp(service, url);
      const password = `pw-${randomBytes(8).toString('hex')}`;
      const email = uniqueEmail('logs');
      const registered = await request(url)
        .post('/v1/auth/register')
        .set('X-Request-Id', `ops-register-${randomBytes(4).toString('hex')}`)
        .send({ name: 'Loja Log', email, password });
      expect(registered.status).toBe(201);
      const session: string = registered.body.data.session.token;
      const key: string = registered.body.data.apiKey.key;

      const requestId = `ops-logs-${randomBytes(6).toString('hex')}`;
      const stores = await request(url).get('/v1/stores/list').set('X-Request-Id', requestId).set(bearer(key));
      expect(stores.status).toBe(200);
      expect(stores.headers['x-request-id']).toBe(requestId);

      await request(url).get('/v1/auth/me').set(bearer(session)).expect(200);
      const login = await request(url).post('/v1/auth/login').send({ email, password });
      expect(login.status).toBe(200);
      const loginSession: string = login.body.data.session.token;
      // A failed call that carries the secrets in its body and headers.
      const invalid = await request(url)
        .post('/v1/auth/register')
        .set(bearer(key))
        .set('Cookie', `sess=${session}`)
        .send({ name: 'x', email, password, extra: password });
      expect(invalid.status).toBe(400);

      service.child.kill('SIGTERM');
      expect((await within(service.exited, 15_000, 'exit after SIGTERM')).code).toBe(0);

      const stdout = service.stdout();
      const lines = stdout.split('\n').filter((line) => line.trim() !== '');
      expect(lines.length).toBeGreaterThan(3);
      const entries = lines.map((line) => {
        try {
          return JSON.parse(line) as Record<string, any>;
        } catch {
          throw new Error(`stdout line is not JSON: ${line}`);
        }
      });
      const requestLines = entries.filter((entry) => JSON.stringify(entry).includes(requestId));
      expect(requestLines.length).toBeGreaterThanOrEqual(1);
      expect(requestLines).toContainEqual(
        expect.objectContaining({ req: expect.objectContaining({ id: requestId, method: 'GET', path: '/v1/stores/list' }) }),
      );

      for (const secret of [key, `Bearer ${key}`, session, loginSession, password]) {
        expect({ secret, found: stdout.includes(secret) }).toEqual({ secret, found: false });
        expect({ secret, found: service.stderr().includes(secret) }).toEqual({ secret, found: false });
      }
      // §2.3: the default key is logged exactly once, at creation.
      const defaultKey = readFileSync(join(db.dataDir, 'default-api-key'), 'utf8').trim();
      expect(defaultKey).toMatch(/^sk_test_/);
      expect(stdout.split(defaultKey).length - 1).toBe(1);
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it('drains in-flight requests on SIGTERM and exits with code 0', async () => {
    const db = await database();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const service = spawnService({
      PORT: String(port),
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_COST_LOG2: '17',
    });
    try {
      await waitUntilUp(service, url);
      const inFlight = Array.from({ length: 4 }, (_, i) =>
        postJson(url, '/v1/auth/register', { name: `Loja ${i}`, email: uniqueEmail('drain'), password: 'correct horse battery' }),
      );
      await Promise.all(inFlight.map((call) => call.sent));
      // The kernel hands connections to the server in arrival order: once a later connection has been answered,
      // the four earlier ones were accepted too (not still queued, where closing the listener would reset them).
      // scrypt at cost 2^17 keeps them busy well past this.
      await request(url).get('/health').expect(200);
      const answeredBeforeSignal = inFlight.filter((call) => call.isSettled()).length;
      service.child.kill('SIGTERM');

      const responses = await within(Promise.all(inFlight.map((call) => call.answered)), 15_000, 'in-flight responses');
      // Otherwise nothing was in flight and the test proved nothing (scrypt should keep them busy).
      expect(answeredBeforeSignal).toBe(0);
      expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201]);
      for (const response of responses) {
        expect(response.body.success).toBe(true);
        expect(response.body.data.session.token).toMatch(/^sess_/);
      }
      const exit = await within(service.exited, 10_000, 'exit after SIGTERM');
      expect(exit).toEqual({ code: 0, signal: null });
      // Stopped: no longer accepting connections.
      const after = await request(url)
        .get('/health')
        .timeout(2000)
        .then(() => 'answered')
        .catch((error: NodeJS.ErrnoException) => error.code);
      expect(after).toBe('ECONNREFUSED');
    } finally {
      service.child.kill('SIGKILL');
    }
  });
});
