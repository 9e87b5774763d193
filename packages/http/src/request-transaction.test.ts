import type { ApiTokenPrincipal } from '@travelops/auth';
import type { ApiTokenRecord } from '@travelops/domain/access';
import { fail, ok, type UnitOfWork } from '@travelops/domain/shared';
import { describe, expect, it } from 'vitest';
import type { AppStores } from './deps.js';
import { runRequestTransaction } from './request-transaction.js';
import { createUnitTestDeps } from './test-deps.js';

// The one core of the native, OCTO and public pipelines: where the work runs, and the
// credential read again after it (decisions §6).
const record = (): ApiTokenRecord => ({
  id: 'tok_1',
  workspaceId: 'ws_a',
  role: 'RESELLER',
  name: 'unit',
  prefix: 'tops_unit',
  secretHash: 'hash',
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
  createdAt: new Date(),
});
/** A failure of an adapter's own (OCTO's codes), beside the domain's. */
type AdapterFailure = { code: 'INVALID_PRODUCT_ID'; message: string; productId: string };
const principal: ApiTokenPrincipal = {
  kind: 'api_token',
  tokenId: 'tok_1',
  workspaceId: 'ws_a',
  role: 'RESELLER',
};

function scene() {
  const token = record();
  const deps = createUnitTestDeps([token]);
  const transactions: string[] = [];
  const pool = deps.uow;
  const uow: UnitOfWork<AppStores> = {
    stores: pool.stores,
    transaction: async (work) => {
      transactions.push('open');
      const result = await work(pool);
      transactions.push(result.ok ? 'commit' : 'rollback');
      return result;
    },
  };
  return { token, deps: { ...deps, uow }, transactions, pool };
}

describe('runRequestTransaction', () => {
  it('a write runs in one transaction and commits when the credential still holds', async () => {
    const { deps, transactions, pool } = scene();
    const seen: unknown[] = [];
    const result = await runRequestTransaction(deps, { method: 'post', principal }, async (uow) => {
      seen.push(uow);
      return ok('done');
    });
    expect(result).toEqual({ ok: true, value: 'done' });
    expect(transactions).toEqual(['open', 'commit']);
    expect(seen).toEqual([pool]);
  });

  it('a credential revoked while a write ran: 401, and the transaction rolls back', async () => {
    const { token, deps, transactions } = scene();
    const result = await runRequestTransaction(deps, { method: 'patch', principal }, async () => {
      token.revokedAt = new Date();
      return ok('done');
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
    expect(transactions).toEqual(['open', 'rollback']);
  });

  it('a read runs on the pool, and is 401 when the credential was revoked meanwhile', async () => {
    const { token, deps, transactions } = scene();
    const read = await runRequestTransaction(deps, { method: 'get', principal }, async () => ok('page'));
    expect(read).toEqual({ ok: true, value: 'page' });
    const revoked = await runRequestTransaction(deps, { method: 'get', principal }, async () => {
      token.revokedAt = new Date();
      return ok('page');
    });
    expect(revoked).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
    expect(transactions).toEqual([]);
  });

  it("a failed write keeps its own failure (OCTO's too), and a public one needs no credential", async () => {
    const { token, deps } = scene();
    token.revokedAt = new Date();
    const octo = await runRequestTransaction<never, AdapterFailure>(
      deps,
      { method: 'post', principal },
      async () => fail({ code: 'INVALID_PRODUCT_ID', message: 'No such product.', productId: 'p' }),
    );
    expect(octo).toMatchObject({ ok: false, error: { code: 'INVALID_PRODUCT_ID' } });
    const guest = await runRequestTransaction(deps, { method: 'post', principal: null }, async () => ok(1));
    expect(guest).toEqual({ ok: true, value: 1 });
  });
});
