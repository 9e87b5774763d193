import { conflict, unprocessable } from '../shared/errors.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { IdempotencyStore } from './ports.js';

/** Decisions §7: an Idempotency-Key answers the same for 24 hours. */
const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface IdempotentRequest {
  /** Workspace (or public slug and client) + method + path: where the key is unique. */
  scope: string;
  key: string;
  /** Canonical hash of the request body: reordered JSON keys are the same body. */
  fingerprint: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
  /** Replayed with the body (an ETag, a guest page's no-store). */
  headers?: Record<string, string>;
}

/** What the key's record keeps: the body and the headers that belong to it. */
interface SavedResponse {
  body: unknown;
  headers?: Record<string, string>;
}

const RAN_TWICE = conflict(
  'A request with this Idempotency-Key completed meanwhile; try again to receive its answer.',
  'Idempotency-Key',
  'idempotency_key_in_use',
);

/**
 * Runs `work` once per key. The key is claimed (a transaction-scoped lock) before the work,
 * so a concurrent twin gets 409; the response is saved in the work's own transaction, so a
 * rolled-back request leaves no record and may run again with the same key.
 */
export function runIdempotently<S extends { idempotency: IdempotencyStore }>(
  deps: { uow: UnitOfWork<S>; clock: Clock },
  request: IdempotentRequest,
  work: (tx: UnitOfWork<S>) => Promise<Result<StoredResponse>>,
): Promise<Result<StoredResponse & { replayed: boolean }>> {
  const { clock } = deps;
  return deps.uow.transaction<StoredResponse & { replayed: boolean }>(async (tx) => {
    const notBefore = new Date(clock.now().getTime() - IDEMPOTENCY_RETENTION_MS);
    const claim = await tx.stores.idempotency.claim(request.scope, request.key, notBefore);
    if (!claim.taken) {
      return fail(
        conflict(
          'A request with this Idempotency-Key is still running.',
          'Idempotency-Key',
          'idempotency_key_in_use',
        ),
      );
    }
    const { existing } = claim;
    if (existing) {
      if (existing.fingerprint !== request.fingerprint) {
        return fail(
          unprocessable(
            'This Idempotency-Key was used with a different request body.',
            'Idempotency-Key',
            'idempotency_key_reused',
          ),
        );
      }
      const saved = existing.responseBody as SavedResponse;
      return ok({
        status: existing.responseStatus,
        body: saved.body,
        ...(saved.headers && { headers: saved.headers }),
        replayed: true,
      });
    }
    const result = await work(tx);
    if (!result.ok) return result;
    const saved = await tx.stores.idempotency.save(
      {
        scope: request.scope,
        key: request.key,
        fingerprint: request.fingerprint,
        responseStatus: result.value.status,
        responseBody: { body: result.value.body, headers: result.value.headers } satisfies SavedResponse,
      },
      notBefore,
    );
    // A twin committed between the claim's read and its lock: roll this run back; the rerun replays it.
    if (!saved) return fail({ ...RAN_TWICE, retryable: true });
    return ok({ ...result.value, replayed: false });
  });
}

/** The worker's clean-up: records past retention go. */
export function purgeIdempotencyKeys(deps: {
  uow: UnitOfWork<{ idempotency: IdempotencyStore }>;
  clock: Clock;
}): Promise<number> {
  const { clock } = deps;
  return deps.uow.stores.idempotency.deleteOlderThan(
    new Date(clock.now().getTime() - IDEMPOTENCY_RETENTION_MS),
  );
}
