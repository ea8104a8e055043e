import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorDetail, validationError } from '../errors/domain-error';

/**
 * The global pipe: DTOs are whitelisted (unknown fields are a 400, never silently dropped),
 * transformed to their types, and every failure becomes VALIDATION_ERROR with one detail per field.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors: ValidationError[]) => {
      const details = flattenValidationErrors(errors);
      const summary = details.length === 1 ? details[0].message : `${details.length} fields are invalid`;
      return validationError(summary, details);
    },
  });
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const field = joinPath(parent, error.property);
    // One message per field. Decorators register bottom-up, so the last failing constraint is the one
    // written first on the property (its type or presence check): "id must be a string" for a missing id,
    // not a complaint about its length.
    const failed = Object.entries(error.constraints ?? {});
    if (failed.length > 0) {
      const [constraint, message] = failed[failed.length - 1];
      details.push({ field, message: constraint === 'whitelistValidation' ? `${field} is not an accepted field` : message });
    }
    if (error.children && error.children.length > 0) {
      details.push(...flattenValidationErrors(error.children, field));
    }
  }
  return details;
}

function joinPath(parent: string, property: string): string {
  if (parent === '') return property;
  return /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
}
