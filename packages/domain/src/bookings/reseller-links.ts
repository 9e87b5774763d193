import type { BookingRecord } from './ports.js';

// What a booking made by a reseller connection (an OCTO reseller's API token) carries beside the
// booking itself. The wire protocol that fills it lives in packages/octo; the domain keeps the facts.

/** A reseller's contact for the booking, as its protocol gives it: every field present, null when unknown. */
export interface ResellerContact {
  fullName: string | null;
  firstName: string | null;
  lastName: string | null;
  emailAddress: string | null;
  phoneNumber: string | null;
  locales: string[];
  postalCode: string | null;
  country: string | null;
  notes: string | null;
}

/** A unit item's own data, by the participant it is: its uuid, the reseller's reference, its contact. */
export interface ResellerUnitItemLink {
  participantId: string;
  uuid: string;
  resellerReference: string | null;
  contact: ResellerContact | null;
}

/**
 * What OCTO adds to a booking made through it: the reseller connection (the API token) that
 * made it, the reseller's `uuid` that addresses it (unique per connection), the reseller's
 * reference and contact, and the unit items' uuids.
 */
export interface ResellerBookingLink {
  bookingId: string;
  workspaceId: string;
  connectionId: string;
  uuid: string;
  resellerReference: string | null;
  contact: ResellerContact | null;
  unitItems: ResellerUnitItemLink[];
}

/** A booking made through OCTO, with its link. */
export interface ResellerBookingRecord {
  link: ResellerBookingLink;
  booking: BookingRecord;
}

export interface ResellerBookingFilter {
  resellerReference?: string;
  /** The booking id. */
  supplierReference?: string;
  /** Departures starting at or after... */
  startsFrom?: Date;
  /** ...and before. */
  startsBefore?: Date;
}

export interface ResellerBookingStore {
  /**
   * Waits for, then holds until the transaction ends, the connection's `uuid`: twin
   * reservations with one uuid serialise, so the second finds the first's booking.
   */
  lockUuid(connectionId: string, uuid: string): Promise<void>;
  insert(link: ResellerBookingLink): Promise<void>;
  update(
    workspaceId: string,
    bookingId: string,
    patch: Partial<Pick<ResellerBookingLink, 'resellerReference' | 'contact' | 'unitItems'>>,
  ): Promise<void>;
  /** The connection's booking with this uuid; another connection's is never found. */
  findByUuid(workspaceId: string, connectionId: string, uuid: string): Promise<ResellerBookingRecord | null>;
  /** The connection's bookings matching every filter, by departure start then id, at most `limit`. */
  list(
    workspaceId: string,
    connectionId: string,
    filter: ResellerBookingFilter,
    limit: number,
  ): Promise<ResellerBookingRecord[]>;
}
