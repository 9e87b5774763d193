import type { ApiTokenStore, WorkspaceStore } from '../access/index.js';
import type { BookingRecord, BookingStores } from '../bookings/index.js';
import type { ScheduleStore } from '../catalog/index.js';
import type { PaymentProvider } from '../payments/index.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import type { OctoContact } from './shapes.js';

/** A unit item's own data, by the participant it is: its uuid, the reseller's reference, its contact. */
export interface OctoUnitItemLink {
  participantId: string;
  uuid: string;
  resellerReference: string | null;
  contact: OctoContact | null;
}

/**
 * What OCTO adds to a booking made through it: the reseller connection (the API token) that
 * made it, the reseller's `uuid` that addresses it (unique per connection), the reseller's
 * reference and contact, and the unit items' uuids.
 */
export interface OctoBookingLink {
  bookingId: string;
  workspaceId: string;
  connectionId: string;
  uuid: string;
  resellerReference: string | null;
  contact: OctoContact | null;
  unitItems: OctoUnitItemLink[];
}

/** A booking made through OCTO, with its link. */
export interface OctoBookingRecord {
  link: OctoBookingLink;
  booking: BookingRecord;
}

export interface OctoBookingFilter {
  resellerReference?: string;
  /** The booking id. */
  supplierReference?: string;
  /** Departures starting at or after... */
  startsFrom?: Date;
  /** ...and before. */
  startsBefore?: Date;
}

export interface OctoBookingStore {
  /**
   * Waits for, then holds until the transaction ends, the connection's `uuid`: twin
   * reservations with one uuid serialise, so the second finds the first's booking.
   */
  lockUuid(connectionId: string, uuid: string): Promise<void>;
  insert(link: OctoBookingLink): Promise<void>;
  update(
    workspaceId: string,
    bookingId: string,
    patch: Partial<Pick<OctoBookingLink, 'resellerReference' | 'contact' | 'unitItems'>>,
  ): Promise<void>;
  /** The connection's booking with this uuid; another connection's is never found. */
  findByUuid(workspaceId: string, connectionId: string, uuid: string): Promise<OctoBookingRecord | null>;
  /** The connection's bookings matching every filter, by departure start then id, at most `limit`. */
  list(
    workspaceId: string,
    connectionId: string,
    filter: OctoBookingFilter,
    limit: number,
  ): Promise<OctoBookingRecord[]>;
}

/** Every store the OCTO use cases touch: the booking use cases' and a few more. */
export type OctoStores = BookingStores & {
  octoBookings: OctoBookingStore;
  schedules: ScheduleStore;
  workspaces: WorkspaceStore;
  apiTokens: ApiTokenStore;
};

export interface OctoDeps {
  uow: UnitOfWork<OctoStores>;
  clock: Clock;
  payments: PaymentProvider;
}

/** Who sells: a reseller connection (an API token) of a workspace, and what it asked to see. */
export interface OctoCaller {
  workspaceId: string;
  connectionId: string;
  /** `octo/pricing` among the request's `Octo-Capabilities`: prices are added to the answers. */
  pricing: boolean;
}
