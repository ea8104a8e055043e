import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { AuthContext } from '../../common/auth/auth-context';
import { AUTH_REQUIREMENT, AuthRequirement } from '../../common/auth/auth.decorators';
import { isGranted } from '../../common/auth/permissions';
import { DomainError, forbidden, unauthenticated } from '../../common/errors/domain-error';
import { bearerToken } from '../../common/http/bearer-token';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AuthService } from './auth.service';

const SESSION_COOKIE = 'sess';
const isApiKey = (token: string) => token.startsWith('sk_test_') || token.startsWith('sk_live_');
const isSession = (token: string) => token.startsWith('sess_');

/**
 * The one authentication guard. Every route declares its requirement with @Public, @RequiresKey,
 * @RequiresSession or @RequiresKeyManager; a route without one is refused (fail closed).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_REQUIREMENT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!requirement) throw new DomainError('INTERNAL', 'Route declares no authentication requirement');
    if (requirement.kind === 'public') return true;

    const request = context.switchToHttp().getRequest<Request>();
    request.auth = await this.resolve(request, requirement);
    return true;
  }

  private async resolve(request: Request, requirement: Exclude<AuthRequirement, { kind: 'public' }>): Promise<AuthContext> {
    const token = this.presentedToken(request, requirement.kind !== 'api-key');
    if (token === null) throw unauthenticated('Send Authorization: Bearer <API key>');

    if (isApiKey(token)) {
      if (requirement.kind === 'session') throw unauthenticated('This route needs a merchant session, not an API key');
      const key = await this.apiKeys.authenticate(token);
      if (!key) throw unauthenticated('Unknown, revoked or expired API key');
      if (requirement.kind === 'key-manager' && !key.grants.includes('*')) {
        throw forbidden('Managing API keys needs a key with permission "*" or a merchant session');
      }
      if (requirement.kind === 'api-key' && requirement.permission !== null && !isGranted(key.grants, requirement.permission)) {
        throw forbidden(`This API key lacks the permission ${requirement.permission}`);
      }
      return key;
    }

    if (isSession(token) && requirement.kind !== 'api-key') {
      const session = await this.auth.authenticate(token);
      if (!session) throw unauthenticated('Unknown, ended or expired session');
      return session;
    }
    throw unauthenticated(requirement.kind === 'api-key' ? 'This route needs an API key' : 'Malformed credentials');
  }

  /** Bearer header first; the `sess` cookie only where sessions are accepted. */
  private presentedToken(request: Request, acceptsSession: boolean): string | null {
    if (request.headers.authorization !== undefined) return bearerToken(request);
    if (!acceptsSession) return null;
    const cookie = (request.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
    return typeof cookie === 'string' && cookie.length > 0 ? cookie : null;
  }
}
