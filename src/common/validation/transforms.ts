/** class-transformer helpers for request fields. */
type TransformInput = { value: unknown };

export const trimmed = ({ value }: TransformInput) => (typeof value === 'string' ? value.trim() : value);
export const lowerCaseTrimmed = ({ value }: TransformInput) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;
export const upperCaseTrimmed = ({ value }: TransformInput) =>
  typeof value === 'string' ? value.trim().toUpperCase() : value;
