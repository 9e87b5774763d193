import { type DomainError, rateLimitedError } from '@travelops/domain/shared';
import type { NextFunction, Request, Response } from 'express';
import { clientKey } from './rate-limit.js';

/**
 * Slots of expensive work (calendars, OCTO availability, manifests, schedule writes) per
 * credential: a caller holds at most `limit` at once, whatever it spends its rate limit on.
 * `apps/api` shares them through Redis when it has one; `createLocalConcurrencyLimiter` keeps
 * them in this process.
 */
export interface ConcurrencyLimiter {
  readonly limit: number;
  /** Takes one of `key`'s slots: its release (call it once), or null when all are taken. */
  acquire(key: string): Promise<(() => void) | null>;
}

/** Expensive requests one credential may run at once unless configured (`EXPENSIVE_REQUESTS_PER_CREDENTIAL`). */
export const DEFAULT_EXPENSIVE_REQUESTS_PER_CREDENTIAL = 4;

/** Seconds a refused caller is told to wait: expensive answers take a second or less. */
const RETRY_AFTER_SECONDS = 1;

/** Slots counted in this process: enough for one instance, and the fallback when Redis is away. */
export function createLocalConcurrencyLimiter(
  limit = DEFAULT_EXPENSIVE_REQUESTS_PER_CREDENTIAL,
): ConcurrencyLimiter {
  const held = new Map<string, number>();
  return {
    limit,
    async acquire(key) {
      const count = held.get(key) ?? 0;
      if (count >= limit) return null;
      held.set(key, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (held.get(key) ?? 1) - 1;
        if (left <= 0) held.delete(key);
        else held.set(key, left);
      };
    },
  };
}

/** Where admission leaves the key a request's slots are counted under (see `slotKeyOf`). */
const SLOT_KEY = 'slotKey';

/** Records the credential the request was admitted with (`tok:`, `ses:`); anonymous callers count by address. */
export function setSlotKey(res: Response, key: string): void {
  res.locals[SLOT_KEY] = key;
}

const slotKeyOf = (req: Request, res: Response): string =>
  (res.locals[SLOT_KEY] as string | undefined) ?? `ip:${clientKey(req.ip)}`;

function tooManyAtOnce(limit: number): DomainError {
  return rateLimitedError(
    `At most ${limit} expensive requests (calendars, availability checks, manifests, schedule changes) may run at once per credential: retry after ${RETRY_AFTER_SECONDS} second.`,
    RETRY_AFTER_SECONDS,
  );
}

/**
 * Holds one of the caller's slots while the request runs (released when the answer is sent or
 * the client goes away); with none free, 429 `RATE_LIMITED` with `Retry-After`. Put it after
 * admission, which names the credential.
 */
export function holdExpensiveSlot(
  limiter: ConcurrencyLimiter,
  onRefused: (res: Response, error: DomainError) => void,
) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const release = await limiter.acquire(slotKeyOf(req, res));
    if (!release) return onRefused(res, tooManyAtOnce(limiter.limit));
    res.once('close', release);
    next();
  };
}
