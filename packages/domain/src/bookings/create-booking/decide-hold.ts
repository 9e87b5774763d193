import type { Tour } from '../../catalog/index.js';
import type { PaymentPurpose } from '../../payments/index.js';
import type { PaymentMode } from '../../shared/enums.js';
import type { BookingChannelPolicy, HoldRule } from '../channel-policy.js';
import { firstPaymentAmount, holdExpiry } from '../rules.js';

const MINUTE = 60_000;

/** How a new booking starts: its status, until when it holds its seats, and what it asks to be paid. */
export interface HoldDecision {
  status: 'CONFIRMED' | 'PENDING';
  expiresAt: Date | null;
  /** The first payment page to open; null when nothing is paid online now. */
  payment: { amount: number; purpose: PaymentPurpose } | null;
}

type HoldTour = Pick<Tour, 'publicHoldMinutes' | 'depositPercent'>;

/** When the hold of a waiting booking lapses, by the channel's rule. */
export function holdUntil(rule: HoldRule, mode: PaymentMode, tour: HoldTour, now: Date): Date | null {
  if (rule.by === 'tour') return new Date(now.getTime() + tour.publicHoldMinutes * MINUTE);
  if (rule.by === 'minutes') return new Date(now.getTime() + rule.minutes * MINUTE);
  return holdExpiry(mode, now);
}

/**
 * Decisions §2-§3: a free booking is CONFIRMED at once (unless MANUAL, or the channel's
 * bookings wait for a confirmation), anything else waits PENDING, holding its seats for the
 * channel's time; an online mode opens its first payment page, open as long as the hold.
 */
export function decideHold(
  mode: PaymentMode,
  total: number,
  tour: HoldTour,
  now: Date,
  policy: Pick<BookingChannelPolicy, 'hold' | 'holdsWhenFree'>,
): HoldDecision {
  const settled = total === 0;
  const expiresAt = !settled || policy.holdsWhenFree ? holdUntil(policy.hold, mode, tour, now) : null;
  const status = settled && mode !== 'MANUAL' ? 'CONFIRMED' : 'PENDING';
  const payment =
    mode !== 'MANUAL' && !settled && expiresAt
      ? {
          amount: firstPaymentAmount(mode, total, tour.depositPercent),
          purpose: mode === 'DEPOSIT' ? ('DEPOSIT' as const) : ('FULL' as const),
        }
      : null;
  return { status, expiresAt, payment };
}
