/** How long one delivery attempt may take before it counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Receivers' bodies are read up to this many bytes (kept for the delivery log), no more. */
export const MAX_RESPONSE_BYTES = 4096;

export interface RetryPolicy {
  /** First retry after about this long; each further one doubles. */
  baseDelayMs: number;
  /** No gap between attempts grows beyond this. */
  maxDelayMs: number;
  /** After this long since the event, a delivery that still fails is given up (FAILED). */
  windowMs: number;
}

/** About three days of retries: 30 s, 1 min, 2 min ... capped at 6 h, with jitter. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 30_000,
  maxDelayMs: 6 * 60 * 60 * 1000,
  windowMs: 3 * 24 * 60 * 60 * 1000,
};

const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export interface AttemptOutcome {
  /** The receiver's status; absent when no answer came (timeout, refused connection). */
  statusCode?: number;
  /** `Retry-After` as sent, if any. */
  retryAfter?: string | null;
}

export type DeliveryDecision =
  | { status: 'SUCCEEDED'; nextAttemptAt: null; disableEndpoint: false }
  | { status: 'PENDING'; nextAttemptAt: Date; disableEndpoint: false }
  | { status: 'FAILED'; nextAttemptAt: null; disableEndpoint: boolean };

/** `Retry-After` in seconds or as an HTTP date, as milliseconds from now (capped at a day); null if unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now.getTime();
  if (!Number.isFinite(ms)) return null;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** Exponential backoff with full jitter between half and one and a half times the step. */
export function backoffDelay(attempts: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.baseDelayMs * 2 ** Math.max(0, attempts - 1), policy.maxDelayMs);
  return Math.round(step * (0.5 + random()));
}

/**
 * What happens after an attempt: only 2xx succeeds (a redirect is a failure); 410 Gone gives
 * up and disables the endpoint; 429/503 wait as long as `Retry-After` asks; anything else
 * backs off, until the retry window since the event closes.
 */
export function decideAfterAttempt(input: {
  outcome: AttemptOutcome;
  /** Attempts made, this one included. */
  attempts: number;
  eventCreatedAt: Date;
  now: Date;
  policy?: RetryPolicy;
  random?: () => number;
}): DeliveryDecision {
  const { outcome, attempts, eventCreatedAt, now } = input;
  const policy = input.policy ?? DEFAULT_RETRY_POLICY;
  const status = outcome.statusCode;
  if (status !== undefined && status >= 200 && status < 300) {
    return { status: 'SUCCEEDED', nextAttemptAt: null, disableEndpoint: false };
  }
  if (status === 410) return { status: 'FAILED', nextAttemptAt: null, disableEndpoint: true };
  const asked = status === 429 || status === 503 ? parseRetryAfter(outcome.retryAfter, now) : null;
  const delay = asked ?? backoffDelay(attempts, policy, input.random ?? Math.random);
  const next = new Date(now.getTime() + delay);
  if (next.getTime() > eventCreatedAt.getTime() + policy.windowMs) {
    return { status: 'FAILED', nextAttemptAt: null, disableEndpoint: false };
  }
  return { status: 'PENDING', nextAttemptAt: next, disableEndpoint: false };
}
