import type { CancellationPolicy } from '../catalog/index.js';
import type { BookingStatus } from '../shared/enums.js';
import { unprocessable } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** How far past now a hold may ever be extended. */
const MAX_HOLD_EXTENSION_MINUTES = 60;

/** Until when a guest may cancel: the departure's start less the policy's `cutoffHours`. */
export function cancellationCutoff(startsAt: string, policy: Pick<CancellationPolicy, 'cutoffHours'>): Date {
  return new Date(Date.parse(startsAt) - policy.cutoffHours * HOUR);
}

/** Only a PENDING or CONFIRMED booking is still there to cancel. */
const isOpen = (status: BookingStatus) => status === 'PENDING' || status === 'CONFIRMED';

/** Whether a guest may cancel the booking now: still open and strictly before the cutoff. */
export function isGuestCancellable(
  booking: { status: BookingStatus; startsAt: string; cancellationPolicy: CancellationPolicy },
  now: Date,
): boolean {
  return (
    isOpen(booking.status) &&
    now.getTime() < cancellationCutoff(booking.startsAt, booking.cancellationPolicy).getTime()
  );
}

/** A guest's cancel: 422 `invalid_state` once the booking left PENDING/CONFIRMED, then the cutoff. */
export function checkGuestCancel(
  booking: { status: BookingStatus; startsAt: string; cancellationPolicy: CancellationPolicy },
  now: Date,
): Result<true> {
  if (!isOpen(booking.status)) {
    return fail(unprocessable(`A ${booking.status} booking cannot be cancelled.`, 'status', 'invalid_state'));
  }
  const cutoff = cancellationCutoff(booking.startsAt, booking.cancellationPolicy);
  if (now.getTime() >= cutoff.getTime()) {
    return fail(
      unprocessable(
        `Guests could cancel until ${cutoff.toISOString()}; ask the operator.`,
        'cancellationCutoffAt',
        'cancellation_cutoff_passed',
      ),
    );
  }
  return ok(true);
}

/**
 * What the policy refunds on a guest's cancel, in minor units: FULL everything still refundable,
 * PARTIAL `refundPercent` of what was paid (rounded down), NONE nothing; never more than was
 * paid and not yet refunded (an operator may have refunded part already).
 */
export function policyRefund(
  policy: CancellationPolicy,
  money: { amountPaid: number; amountRefunded: number },
): number {
  const refundable = Math.max(0, money.amountPaid - money.amountRefunded);
  switch (policy.refund) {
    case 'FULL':
      return refundable;
    case 'PARTIAL':
      return Math.min(refundable, Math.floor((money.amountPaid * (policy.refundPercent ?? 0)) / 100));
    case 'NONE':
      return 0;
  }
}

/** An operator's chosen refund on cancel: at most what was paid and not yet refunded. */
export function checkChosenRefund(
  amount: number,
  money: { amountPaid: number; amountRefunded: number },
): Result<number> {
  const refundable = Math.max(0, money.amountPaid - money.amountRefunded);
  if (amount > refundable) {
    return fail(
      unprocessable(`At most ${refundable} can be refunded.`, 'refundAmount', 'exceeds_refundable'),
    );
  }
  return ok(amount);
}

/**
 * A PENDING hold extended by `minutes`: `expiresAt + minutes`, capped at 60 minutes past now,
 * and never shorter than it was (a 24 h payment-link hold stays as it is). 422 `invalid_state`
 * when the booking is not PENDING, `no_hold` when it holds without expiry (MANUAL), and
 * `hold_expired` once its expiry has passed (the seats are the worker's to release).
 */
export function extendHoldExpiry(
  booking: { status: BookingStatus; expiresAt: string | null },
  minutes: number,
  now: Date,
): Result<Date> {
  if (booking.status !== 'PENDING') {
    return fail(
      unprocessable(`A ${booking.status} booking holds no seats to extend.`, 'status', 'invalid_state'),
    );
  }
  if (booking.expiresAt === null) {
    return fail(unprocessable('This booking holds its seats without expiry.', 'expiresAt', 'no_hold'));
  }
  const current = Date.parse(booking.expiresAt);
  if (current <= now.getTime()) {
    return fail(unprocessable('The hold has expired.', 'expiresAt', 'hold_expired'));
  }
  const wanted = Math.min(current + minutes * MINUTE, now.getTime() + MAX_HOLD_EXTENSION_MINUTES * MINUTE);
  return ok(new Date(Math.max(current, wanted)));
}
