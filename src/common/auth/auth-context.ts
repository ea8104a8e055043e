import type { Mode } from '../../database/database.types';
import type { Grant } from './permissions';

/** Who is calling, resolved once per request by the auth guard. */
export type AuthContext = ApiKeyAuth | SessionAuth;

export interface ApiKeyAuth {
  kind: 'api-key';
  merchantId: string;
  storeId: string;
  mode: Mode;
  keyId: string;
  grants: Grant[];
}

export interface SessionAuth {
  kind: 'session';
  merchantId: string;
  storeId: string;
  sessionId: string;
}

/** Scope of every merchant-owned query: a repository method without it is a bug. */
export interface Scope {
  storeId: string;
  mode: Mode;
}

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AuthContext;
  }
}
