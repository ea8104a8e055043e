import type { Response } from 'supertest';

/** The error envelope of API.md §1.1 with this status and code. */
export function expectError(response: Response, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expect(response.body.success).toBe(false);
  expect(response.body.data).toBeNull();
  expect(typeof response.body.error.message).toBe('string');
}

/** A 400 VALIDATION_ERROR whose details name `field`. */
export function expectValidationField(response: Response, field: string): void {
  expectError(response, 400, 'VALIDATION_ERROR');
  const fields = (response.body.error.details ?? []).map((detail: { field: string }) => detail.field);
  expect(fields).toContain(field);
}

/** A success envelope with this status. */
export function expectOk(response: Response, status = 200): void {
  expect({ status: response.status, error: response.body?.error ?? null }).toEqual({ status, error: null });
  expect(response.body.success).toBe(true);
}

/** A metadata object with `count` keys. */
export const manyKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));
