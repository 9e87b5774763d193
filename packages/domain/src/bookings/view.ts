import { cancellationCutoff, isGuestCancellable } from './policy-rules.js';
import type { BookingRecord } from './ports.js';
import type { Booking } from './schemas.js';

export interface BookingLinks {
  checkoutUrl?: string;
  paymentLinkUrl?: string;
}

/**
 * The API shape of a stored booking at `now`: internal fields dropped, the cancellation
 * cutoff and whether a guest may cancel derived, one-time links added. The caller names the
 * instant (the request's or the event's clock), so the domain never reads the time itself.
 */
export function toBookingView(record: BookingRecord, now: Date, links: BookingLinks = {}): Booking {
  const { workspaceId: _workspaceId, version: _version, holderKey: _holderKey, ...booking } = record;
  return {
    ...booking,
    cancellationCutoffAt: cancellationCutoff(record.startsAt, record.cancellationPolicy).toISOString(),
    cancellable: isGuestCancellable(record, now),
    ...links,
  };
}
