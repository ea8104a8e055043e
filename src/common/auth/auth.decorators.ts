import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import { DomainError } from '../errors/domain-error';
import type { ApiKeyAuth, AuthContext, Scope } from './auth-context';
import type { Permission } from './permissions';

/** How a route is authenticated. Every route declares exactly one; the global guard refuses the rest. */
export type AuthRequirement =
  | { kind: 'public' }
  | { kind: 'api-key'; permission: Permission | null }
  | { kind: 'session' }
  | { kind: 'key-manager' };

export const AUTH_REQUIREMENT = 'auth:requirement';

const requirement = (value: AuthRequirement) => SetMetadata(AUTH_REQUIREMENT, value);

/** No credentials needed (health, register, login, hosted pages). */
export const Public = () => requirement({ kind: 'public' });

/** An API key (either mode); with a permission, the key must hold it (or `*`). */
export const RequiresKey = (permission: Permission | null = null) =>
  applyDecorators(requirement({ kind: 'api-key', permission }), ApiBearerAuth('apiKey'));

/** A merchant session (`sess` cookie or `Bearer sess_…`). */
export const RequiresSession = () => applyDecorators(requirement({ kind: 'session' }), ApiSecurity('session'));

/** A merchant session, or an API key holding `*` (which manages only keys of its own mode). */
export const RequiresKeyManager = () =>
  applyDecorators(requirement({ kind: 'key-manager' }), ApiBearerAuth('apiKey'), ApiSecurity('session'));

function authOf(context: ExecutionContext): AuthContext {
  const auth = context.switchToHttp().getRequest<Request>().auth;
  if (!auth) throw new DomainError('INTERNAL', 'Route has no authentication context');
  return auth;
}

/** The caller, as resolved by the guard. */
export const CurrentAuth = createParamDecorator((_: unknown, context: ExecutionContext) => authOf(context));

/** Store and mode of the calling API key: the scope of every resource query. */
export const CurrentScope = createParamDecorator((_: unknown, context: ExecutionContext): Scope => {
  const auth = authOf(context);
  if (auth.kind !== 'api-key') throw new DomainError('INTERNAL', 'Scope needs an API key');
  return { storeId: auth.storeId, mode: auth.mode };
});

export type { ApiKeyAuth };
