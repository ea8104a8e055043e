/** Paths of the JSON API: enveloped, rate limited, idempotent. */
export const isApiPath = (path: string): boolean => path === '/v1' || path.startsWith('/v1/');
