import type { SendOutcome } from '@travelops/mail';
import { backoffDelay, DEFAULT_RETRY_POLICY, type RetryPolicy } from '@travelops/webhooks';

export type MailDecision =
  | { status: 'SENT'; nextAttemptAt: null }
  | { status: 'PENDING'; nextAttemptAt: Date }
  | { status: 'FAILED'; nextAttemptAt: null };

/**
 * What happens after an SMTP attempt, with the webhooks' retry policy: taken is SENT; a
 * recipient or message refused for good (5xx) is FAILED at once; anything else (refused
 * connection, timeout, 4xx) backs off exponentially with jitter until the window since the
 * message was written closes (about three days), then FAILED.
 */
export function decideAfterSend(input: {
  outcome: SendOutcome;
  /** Attempts made, this one included. */
  attempts: number;
  createdAt: Date;
  now: Date;
  policy?: RetryPolicy;
  random?: () => number;
}): MailDecision {
  const { outcome, attempts, createdAt, now } = input;
  if (outcome.ok) return { status: 'SENT', nextAttemptAt: null };
  if (outcome.permanent) return { status: 'FAILED', nextAttemptAt: null };
  const policy = input.policy ?? DEFAULT_RETRY_POLICY;
  const next = new Date(now.getTime() + backoffDelay(attempts, policy, input.random ?? Math.random));
  if (next.getTime() > createdAt.getTime() + policy.windowMs)
    return { status: 'FAILED', nextAttemptAt: null };
  return { status: 'PENDING', nextAttemptAt: next };
}
