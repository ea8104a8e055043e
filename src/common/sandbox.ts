import type { Scope } from './auth/auth-context';
import { DomainError } from './errors/domain-error';

/** `simulate-…` actions exist only in the sandbox (API.md §10): a live key gets 403 SANDBOX_ONLY. */
export function assertSandbox(scope: Scope): void {
  if (scope.mode !== 'test') {
    throw new DomainError('SANDBOX_ONLY', 'Simulations are only available with a sandbox (sk_test_) key');
  }
}
