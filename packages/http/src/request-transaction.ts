import { type Principal, recheckCredential } from '@travelops/auth';
import type { DomainError, Result, UnitOfWork } from '@travelops/domain/shared';
import type { AppStores, HttpDeps } from './deps.js';

/**
 * The request's one transaction boundary, the same for the native routes, OCTO's and the
 * public ones (no credential). A write (any method but GET) runs in one transaction that
 * every use case joins through the unit of work. With a credential, decisions §6 (revocation
 * is immediate, in-flight requests included): after the work, the credential is re-read under
 * a share lock (only the statements that go with the COMMIT follow); revoked meanwhile, the
 * request is 401 and everything it did (its idempotency record included) rolls back, and a
 * revoke arriving later waits for the commit. A read runs on the pool and re-checks before it
 * answers. `E` is the failure the work returns (OCTO's have codes of their own).
 */
export async function runRequestTransaction<T, E = DomainError>(
  deps: Pick<HttpDeps, 'uow' | 'clock'>,
  request: { method: string; principal: Principal | null },
  execute: (uow: UnitOfWork<AppStores>) => Promise<Result<T, E>>,
): Promise<Result<T, E | DomainError>> {
  const { principal } = request;
  if (request.method === 'get') {
    const result = await execute(deps.uow);
    if (!principal) return result;
    const still = await recheckCredential(
      principal,
      { uow: deps.uow, clock: deps.clock },
      { shareLock: false },
    );
    return still.ok ? result : still;
  }
  return deps.uow.transaction<T, E | DomainError>(async (tx) => {
    const result = await execute(tx);
    if (!result.ok || !principal) return result;
    const still = await recheckCredential(principal, { uow: tx, clock: deps.clock }, { shareLock: true });
    return still.ok ? result : still;
  });
}
