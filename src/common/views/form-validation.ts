import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { flattenValidationErrors } from '../validation/validation.pipe';

export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

/**
 * Validates an HTML form body against the same DTO the JSON API uses, so a page and the API accept
 * exactly the same values. Errors come back per field for the form to show next to its inputs.
 */
export async function validateForm<T extends object>(dto: new () => T, body: Record<string, unknown>): Promise<FormResult<T>> {
  // An empty optional field of an HTML form means "not given", as an absent JSON field does.
  const given = Object.fromEntries(Object.entries(body).filter(([, entry]) => entry !== ''));
  const value = plainToInstance(dto, given);
  const problems = await validate(value, { whitelist: true, forbidNonWhitelisted: false, stopAtFirstError: true });
  if (problems.length === 0) return { ok: true, value };
  const errors: Record<string, string> = {};
  for (const detail of flattenValidationErrors(problems)) {
    const field = detail.field ?? 'form';
    errors[field] ??= detail.message;
  }
  return { ok: false, errors };
}
