import type { BookingRecord } from './ports.js';
import type { Booking } from './schemas.js';

export interface BookingLinks {
  checkoutUrl?: string;
  paymentLinkUrl?: string;
}

/** The API shape of a stored booking: internal fields dropped, one-time links added. */
export function toBookingView(record: BookingRecord, links: BookingLinks = {}): Booking {
  const { workspaceId: _workspaceId, version: _version, holderKey: _holderKey, ...booking } = record;
  return { ...booking, ...links };
}
