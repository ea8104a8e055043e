import type { Request } from 'express';

/** The token of `Authorization: Bearer <token>`, or null when the header is absent or malformed. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header.trim());
  return match ? match[1] : null;
}
