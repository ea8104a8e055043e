import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { join } from 'node:path';
import type { AppConfig } from './config/app-config';
import { isApiPath } from './common/http/api-path';
import { bodyParsers } from './common/http/json-body.middleware';
import { requestIdMiddleware } from './common/http/request-id.middleware';
import { RateLimiter } from './common/rate-limit/rate-limit.middleware';
import { ERROR_ENVELOPE_SCHEMA } from './common/openapi/api-envelope.decorator';
import { CsrfService } from './common/csrf/csrf.service';
import { registerViewHelpers } from './common/views/view-helpers';

export const PROJECT_ROOT = join(__dirname, '..');

/**
 * Express-level setup shared by `main.ts` and the tests, so the tests run the real thing:
 * request ids, security headers, cookies, rate limit, body parsing (1 MiB), views and the OpenAPI document.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.use(requestIdMiddleware);
  // Over plain http (a LAN host, a container name) `upgrade-insecure-requests` would send the stylesheet and every
  // form post to https://, which is not served: the pages would break. Only an https deployment asks for it.
  app.use(
    helmet(config.publicBaseUrl.startsWith('https:') ? {} : { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }),
  );
  app.use(cookieParser());
  // Every /v1 request is counted, unknown routes and unreadable bodies included (API.md §4).
  app.use(app.get(RateLimiter).middleware);
  const [jsonParser, formParser] = bodyParsers(config.bodyLimitBytes);
  app.use(jsonParser);
  // Forms are for the dashboard only: the JSON API never reads a form body (no cross-site form posts).
  app.use((request: Request, response: Response, next: NextFunction) =>
    isApiPath(request.path) ? next() : formParser(request, response, next),
  );
  // Every HTML form post must carry its CSRF token; refused ones never reach a handler.
  app.use(app.get(CsrfService).middleware);
  const viewsDir = join(PROJECT_ROOT, 'views');
  app.setBaseViewsDir(viewsDir);
  app.setViewEngine('hbs');
  registerViewHelpers(viewsDir);
  app.useStaticAssets(join(PROJECT_ROOT, 'public'), { prefix: '/assets/', maxAge: '1h' });
  setUpOpenApi(app);
}

function setUpOpenApi(app: NestExpressApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Payments API')
      .setDescription(
        'Payment platform for Brazilian merchants. Every amount is integer centavos of BRL. Every /v1 response is the envelope {data, success, error}.',
      )
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'sk_test_… or sk_live_…' }, 'apiKey')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'sess_… (or the sess cookie)' }, 'session')
      .build(),
  );
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ErrorEnvelope: ERROR_ENVELOPE_SCHEMA as never },
  };
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
}
