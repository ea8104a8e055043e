import type { Params } from 'nestjs-pino';
import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../../config/app-config';

/** Paths pino blanks in every log line: credentials and anything that could hold a secret. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.key',
  '*.token',
  '*.secret',
  '*.card',
  '*.number',
  '*.cvv',
];

/** JSON logs, one line per request, tagged with the request id that the response also carries. */
export function loggerOptions(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: (request: IncomingMessage) => (request as IncomingMessage & { id?: string }).id ?? 'unknown',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      autoLogging: { ignore: (request: IncomingMessage) => request.url === '/health' || request.url === '/ready' },
      serializers: {
        req: (request: { id: string; method: string; url: string }) => ({
          id: request.id,
          method: request.method,
          // Query strings are cut: a lookup value is no business of the log.
          path: request.url.split('?')[0],
        }),
        res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
      },
    },
  };
}
