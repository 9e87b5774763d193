import type { Departure, DepartureStore, TourStore } from '../catalog/index.js';
import type { CustomerStore } from '../crm/index.js';
import type { OutboxStore } from '../events/index.js';
import type { BlackoutDateStore } from '../operations/index.js';
import type { NewPaymentSession, PaymentStore } from '../payments/index.js';
import type { BookingStatus, PaymentStatus } from '../shared/enums.js';
import type { Page, PageRequest } from '../shared/ports.js';
import type { Result } from '../shared/result.js';
import type { Booking, BookingHistoryEntry, BookingSort } from './schemas.js';

/**
 * A booking as stored: the API shape (without one-time links, and without what the view
 * derives from the clock) plus what only the service needs.
 */
export interface BookingRecord
  extends Omit<Booking, 'checkoutUrl' | 'paymentLinkUrl' | 'cancellationCutoffAt' | 'cancellable'> {
  workspaceId: string;
  /** Bumped by every write; the ETag of the booking. */
  version: number;
  /** An opaque key of the guest's client (a hash of its address) on public bookings; null otherwise. */
  holderKey: string | null;
}

export type NewBooking = Omit<BookingRecord, 'createdAt' | 'updatedAt' | 'version'>;
export type BookingPatch = Partial<
  Omit<
    BookingRecord,
    | 'id'
    | 'workspaceId'
    | 'paymentMode'
    | 'createdAt'
    | 'updatedAt'
    | 'version'
    | 'externalReference'
    | 'guestMessage'
    | 'holderKey'
    | 'cancellationPolicy'
  >
>;

export interface BookingFilter {
  from?: string;
  to?: string;
  status?: BookingStatus;
  paymentStatus?: PaymentStatus;
  /** Exact match. */
  externalReference?: string;
}

/** A booking locked for a change, with its locked departure(s) by id. */
export interface LockedBooking {
  booking: BookingRecord;
  departures: Map<string, Departure>;
}

/** What a new booking starts with, written in the booking's own statement. */
export interface FirstBookingWrites {
  /** Its first history entry (from null to its status). */
  history?: NewHistoryEntry;
  /** Its first payment page (a new booking has no other to close). */
  paymentSession?: NewPaymentSession;
  /**
   * Its customer's stats refreshed with it counted (`CustomerStore.refreshStats`). This locks
   * the customer's row before the departure is touched (a foreign key is checked at the
   * statement's end), the reverse of the order seat writes take them (departure, then
   * customer): only for a customer created in this transaction, whose row no other can lock
   * yet. Refresh any other customer's after taking the seats.
   */
  refreshCustomerStats?: boolean;
}

export interface BookingStore {
  /**
   * Inserts the booking and, in the same statement, what it starts with. Fails, marked
   * `retryable`, when its departure was deleted since it was read (the transaction cannot go
   * on then: return the failure).
   */
  insert(booking: NewBooking, first?: FirstBookingWrites): Promise<Result<BookingRecord>>;
  findById(workspaceId: string, id: string): Promise<BookingRecord | null>;
  findByPublicToken(publicToken: string): Promise<BookingRecord | null>;
  /** Locks the booking row (FOR UPDATE). Lock its departure(s) first: departures, then bookings. */
  lock(workspaceId: string, id: string): Promise<BookingRecord | null>;
  /**
   * Locks what a seat-affecting change of the booking needs, always in one order (its
   * departure and `alsoDepartureId`, by id, then the booking), so concurrent writes serialise
   * and never deadlock. A concurrent move between the read and the lock is retried with the
   * new departure (the store undoes the stale locks first); NOT_FOUND when there is no such
   * booking, CONFLICT when it keeps moving.
   */
  lockWithDepartures(
    workspaceId: string,
    id: string,
    alsoDepartureId?: string,
  ): Promise<Result<LockedBooking>>;
  /**
   * Sets the booking's `externalReference` (null clears it), bumps `version`. CONFLICT (field
   * `externalReference`, issue `already_exists`) when another booking of the workspace has it.
   */
  claimExternalReference(
    workspaceId: string,
    id: string,
    externalReference: string | null,
  ): Promise<Result<BookingRecord>>;
  /** Applies the patch, bumps `version`, sets `updatedAt`. */
  update(workspaceId: string, id: string, patch: BookingPatch): Promise<BookingRecord>;
  /**
   * Keyset page in `sort` order (id breaks ties). `from`/`to` are inclusive UTC dates of
   * the departure's `startsAt`.
   */
  list(
    workspaceId: string,
    filter: BookingFilter,
    sort: BookingSort,
    page: PageRequest,
  ): Promise<Page<BookingRecord>>;
  /**
   * Serialises one client's holds on one departure until the transaction ends (a lock on the
   * pair, not on the departure), so `liveHoldsOf` read after it counts every earlier one.
   */
  lockHolder(availabilityId: string, holderKey: string): Promise<void>;
  /**
   * Serialises the confirmations to one customer (one address of the workspace) until the
   * transaction ends, so `freePublicBookingsSince` read after it counts every earlier one.
   */
  lockRecipient(workspaceId: string, customerId: string): Promise<void>;
  /** Free public bookings (each confirmed at once, asking its confirmation e-mail) of the customer since `since`, this one included. */
  freePublicBookingsSince(workspaceId: string, customerId: string, since: Date): Promise<number>;
  /**
   * What one client holds on one departure: its unpaid public holds (PENDING, not yet expired at
   * `now`) and its free public bookings (CONFIRMED at 0, which never lapse).
   */
  liveHoldsOf(
    availabilityId: string,
    holderKey: string,
    now: Date,
  ): Promise<{ count: number; earliestExpiry: Date | null }>;
  /**
   * Partner sync: bookings changed at or after `since`, by `updatedAt` then id, strictly after
   * `page.after`. Only changes whose transaction has surely ended are listed, so following
   * `next` never skips a change committed late nor repeats one: a change shows once its writer
   * and every transaction older than it have finished. `next` is where to resume, also on the
   * last page (a feed has no end).
   */
  listChanges(
    workspaceId: string,
    filter: BookingFilter,
    since: string,
    page: PageRequest,
  ): Promise<Page<BookingRecord>>;
  /** The departure's bookings that are not CANCELLED, oldest first (then by id): its manifest. */
  listByDeparture(workspaceId: string, availabilityId: string): Promise<BookingRecord[]>;
  /** PENDING bookings whose `expiresAt` <= now, oldest first; one departure's, or any workspace's. */
  findExpiredHolds(
    now: Date,
    options: { workspaceId?: string; availabilityId?: string; limit: number },
  ): Promise<BookingRecord[]>;
}

export type Actor = BookingHistoryEntry['actor'];

/** Who acts on a booking, and in which workspace. */
export interface BookingContext {
  workspaceId: string;
  actor: Actor;
}

export type NewHistoryEntry = Omit<BookingHistoryEntry, 'createdAt'> & { workspaceId: string };

export interface BookingHistoryStore {
  append(entry: NewHistoryEntry): Promise<void>;
  list(workspaceId: string, bookingId: string, page: PageRequest): Promise<Page<BookingHistoryEntry>>;
}

/** Every store the booking use cases touch; each use case names the ones it needs. */
export interface BookingStores {
  bookings: BookingStore;
  bookingHistory: BookingHistoryStore;
  departures: DepartureStore;
  tours: TourStore;
  customers: CustomerStore;
  blackoutDates: BlackoutDateStore;
  payments: PaymentStore;
  outbox: OutboxStore;
}
