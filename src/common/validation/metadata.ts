import { ValidateBy, ValidationOptions } from 'class-validator';

export type Metadata = Record<string, string>;

const MAX_KEYS = 50;
const MAX_KEY_LENGTH = 40;
const MAX_VALUE_LENGTH = 500;

/** Why `value` is not valid metadata (API.md §1), or null when it is. */
export function metadataProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'metadata must be a flat object';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_KEYS) return `metadata can hold at most ${MAX_KEYS} keys`;
  for (const [key, entry] of entries) {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) return `metadata keys must be 1–${MAX_KEY_LENGTH} characters`;
    if (typeof entry !== 'string') return `metadata.${key} must be a string`;
    if (entry.length > MAX_VALUE_LENGTH) return `metadata.${key} can be at most ${MAX_VALUE_LENGTH} characters`;
  }
  return null;
}

/** Optional flat metadata of every merchant-owned resource: ≤ 50 keys, keys ≤ 40 chars, string values ≤ 500. */
export function IsMetadata(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMetadata',
      validator: {
        validate: (value: unknown) => metadataProblem(value) === null,
        defaultMessage: (args) => metadataProblem(args?.value) ?? 'metadata is invalid',
      },
    },
    options,
  );
}

export const parseMetadata = (text: string | null): Metadata => (text ? (JSON.parse(text) as Metadata) : {});
