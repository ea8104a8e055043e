import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { catchError, from, mergeMap, Observable, of } from 'rxjs';
import { Clock } from '../clock';
import { sha256Hex } from '../crypto/secrets';
import { DomainError, validationError } from '../errors/domain-error';
import { successEnvelope, toErrorResponse } from '../envelope/envelope';
import { PreparedResponse } from '../envelope/raw-response';
import { bearerToken } from '../http/bearer-token';
import { IdempotencyRepository, IdempotencyScope } from './idempotency.repository';
import { openResponse, sealResponse } from './sealed-response';

const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
const RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * `Idempotency-Key` on every POST authenticated by an API key (API.md §1.3). The key is claimed with a
 * unique insert before the handler runs, so concurrent retries can never both execute; the first
 * completed answer (status and envelope) is stored and replayed. Answers of 5xx release the claim:
 * their transaction rolled back, so nothing ran and a retry may execute.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly clock: Clock,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    const rawKey = request.header('idempotency-key');
    if (request.method !== 'POST' || rawKey === undefined || request.auth?.kind !== 'api-key') return next.handle();
    if (!KEY_FORMAT.test(rawKey)) {
      throw validationError('Idempotency-Key must be 1–255 printable characters', [
        { field: 'Idempotency-Key', message: 'must be 1–255 printable ASCII characters' },
      ]);
    }

    const scope: IdempotencyScope = { merchantId: request.auth.merchantId, mode: request.auth.mode, key: rawKey };
    const credential = bearerToken(request) ?? '';
    const seal = (status: number, body: unknown) =>
      this.records.complete(scope, status, sealResponse(JSON.stringify(body), credential, rawKey));
    const fingerprint = sha256Hex(`${request.method} ${request.path}\n${canonicalJson(request.body)}`);
    const now = this.clock.nowIso();
    await this.records.deleteIfExpired(scope, now);
    const claimed = await this.records.claim(scope, fingerprint, now, this.clock.isoIn(RETENTION_MS));
    if (!claimed) return of(await this.replay(scope, fingerprint, credential, context));

    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      mergeMap((data: unknown) =>
        from(
          (async () => {
            // Read after the handler ran: a handler may answer 200 instead of its route's 201 (an existing resource).
            const successStatus = response.statusCode;
            const body = successEnvelope(data ?? null);
            await seal(successStatus, body);
            return new PreparedResponse(successStatus, body);
          })(),
        ),
      ),
      catchError((error: unknown) =>
        from(
          (async () => {
            const { status, body } = toErrorResponse(error);
            if (status >= 500) await this.records.release(scope);
            else await seal(status, body);
            throw error;
          })(),
        ),
      ),
    );
  }

  private async replay(scope: IdempotencyScope, fingerprint: string, credential: string, context: ExecutionContext) {
    const record = await this.records.find(scope);
    if (!record || record.state === 'in_progress') {
      throw new DomainError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still executing');
    }
    if (record.fingerprint !== fingerprint) {
      throw new DomainError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used with a different route or body',
      );
    }
    const body = record.response_body === null ? null : openResponse(record.response_body, credential, scope.key);
    if (body === null) {
      throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used by another API key');
    }
    context.switchToHttp().getResponse<Response>().setHeader('Idempotent-Replayed', 'true');
    return new PreparedResponse(record.response_status ?? 200, JSON.parse(body));
  }
}

/** JSON with object keys sorted, so the same body in another key order has the same fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
