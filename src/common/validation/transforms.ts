/** class-transformer helpers for request fields. */
type TransformInput = { value: unknown };

export const trimmed = ({ value }: TransformInput) => (typeof value === 'string' ? value.trim() : value);
export const lowerCaseTrimmed = ({ value }: TransformInput) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;
export const upperCaseTrimmed = ({ value }: TransformInput) =>
  typeof value === 'string' ? value.trim().toUpperCase() : value;

/** Query strings are text: only plain digits become a number, so "1.5", "1e3", " 3" or "0x3" stay invalid. */
export const strictInteger = ({ value }: TransformInput) =>
  typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
