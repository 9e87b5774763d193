import type { ApiTokenRecord, Stores } from '@travelops/domain';
import type { HttpDeps } from './deps.js';

const unused = new Proxy({} as Stores, {
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
    ...({} as Stores),
    apiTokens: {
      insert: () => Promise.reject(new Error('not in unit tests')),
      findBySecretHash: async (hash: string) => tokens.find((token) => token.secretHash === hash) ?? null,
      revoke: async () => null,
    },
  };
  return {
    stores: new Proxy(stores, {
      get: (target, key) => (key in target ? target[key as keyof Stores] : unused[key as keyof Stores]),
    }),
    clock: { now: () => new Date() },
    checkWebhookUrl: async () => ({ ok: true, value: true }),
    payments: {
      checkoutUrl: (session) => `http://localhost:3000/sandbox/pay/${session.token}`,
      refund: async () => ({ ok: true, value: { reference: 'unit' } }),
    },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    cursorSecret: 'unit-test-secret',
    readiness: {},
    config: { publicBaseUrl: 'http://localhost:3000' },
    ...overrides,
  };
}
