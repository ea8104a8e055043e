import { ValidateIf } from 'class-validator';

/**
 * The field may be left out, but when it is sent it must be valid: `null` is validated like any other
 * value (and refused by the type check). `@IsOptional()` also lets `null` through, so it is kept only for
 * fields where `null` means "clear this value".
 */
export const OptionalField = (): PropertyDecorator => ValidateIf((_object, value: unknown) => value !== undefined);
