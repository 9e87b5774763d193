import type { ApiTokenRecord } from '@travelops/domain/access';
import type { UnitOfWork } from '@travelops/domain/shared';
import { createLocalConcurrencyLimiter } from './concurrency.js';
import type { AppStores, HttpDeps } from './deps.js';
import type { RateLimiter } from './rate-limit.js';

/** A stand-in for the real limiter (apps/api): counts per policy and key, never resets. */
export function createCountingRateLimiter(limit = 1000): RateLimiter & { counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const outcome = (used: number) => ({
    allowed: used <= limit,
    limit,
    remaining: Math.max(limit - used, 0),
    resetSeconds: 60,
  });
  return {
    counts,
    async consume(policy, key) {
      const used = (counts.get(`${policy}:${key}`) ?? 0) + 1;
      counts.set(`${policy}:${key}`, used);
      return outcome(used);
    },
    async peek(policy, key) {
      const used = counts.get(`${policy}:${key}`) ?? 0;
      return { ...outcome(used), allowed: used < limit };
    },
    async reset(policy, key) {
      counts.delete(`${policy}:${key}`);
    },
  };
}

const unused = new Proxy({} as AppStores, {
  get(_target, store) {
    throw new Error(`store ${String(store)} is not available in this unit test`);
  },
});

/** Deps for unit tests of the adapter alone: tokens in memory, every other store refuses. */
export function createUnitTestDeps(
  tokens: ApiTokenRecord[] = [],
  overrides: Partial<HttpDeps> = {},
): HttpDeps {
  const stores = {
    ...({} as AppStores),
    apiTokens: {
      insert: () => Promise.reject(new Error('not in unit tests')),
      findBySecretHash: async (hash: string) => tokens.find((token) => token.secretHash === hash) ?? null,
      findById: async (id: string) => tokens.find((token) => token.id === id) ?? null,
      listActive: () => Promise.reject(new Error('not in unit tests')),
      revoke: async () => null,
      touch: async () => {},
    },
  };
  const uow: UnitOfWork<AppStores> = {
    stores: new Proxy(stores, {
      get: (target, key) => (key in target ? target[key as keyof AppStores] : unused[key as keyof AppStores]),
    }),
    transaction: (work) => work(uow),
  };
  return {
    uow,
    clock: { now: () => new Date() },
    checkWebhookUrl: async () => ({ ok: true, value: true }),
    payments: {
      checkoutUrl: (session) => `http://localhost:3000/sandbox/pay/${session.token}`,
      startCheckout: async ({ session }) => ({
        ok: true,
        value: { redirectUrl: `http://localhost:3000/sandbox/pay/${session.token}`, reference: null },
      }),
      refund: async () => ({ ok: true, value: { reference: 'unit' } }),
    },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    rateLimiter: createCountingRateLimiter(),
    concurrencyLimiter: createLocalConcurrencyLimiter(),
    cursorSecret: 'unit-test-secret',
    csrfSecret: 'unit-test-csrf-secret',
    readiness: {},
    config: { publicBaseUrl: 'http://localhost:3000', sandbox: true },
    ...overrides,
  };
}
