import { DomainError, forbidden, invalidState, notFound, validationError } from '../../common/errors/domain-error';

export const apiKeyNotFound = () => notFound('API key');
export const otherModeForbidden = (mode: string) =>
  forbidden(`A ${mode} API key can only manage ${mode} keys; use the dashboard session for the other mode`);
export const apiKeyNotActive = () => invalidState('API key is revoked or expired');
export const invalidPermissions = (problem: string): DomainError =>
  validationError(problem, [{ field: 'permissions', message: problem }]);
export const expiresAtInPast = () =>
  validationError('expiresAt must be in the future', [{ field: 'expiresAt', message: 'must be in the future' }]);
