import type { WorkspaceStore } from '../access/index.js';
import type { BlackoutDateStore } from '../operations/index.js';
import type { Clock, Page, PageRequest, UnitOfWork } from '../shared/ports.js';
import type { Result } from '../shared/result.js';
import type {
  CreateDepartureInput,
  Departure,
  DeparturePrice,
  UpdateDepartureInput,
} from './availability-schemas.js';
import type { CalendarDeparture } from './calendar.js';
import type { BlackoutDay } from './departure-rules.js';
import type { Resource, ResourceKind } from './resource-schemas.js';
import type { Schedule } from './schedule-schemas.js';
import type { Tour } from './tour-schemas.js';

export type NewTour = Omit<Tour, 'createdAt' | 'updatedAt'>;

/** A published tour found by its public address, with its workspace's id. */
export interface PublishedTour {
  workspaceId: string;
  tour: Tour;
}

/** The rows one calendar answer reads: departures as `listCalendarDepartures`, blackouts as `listApplying`. */
export interface CalendarWindow {
  /** UTC dates of the departures' starts (both inclusive). */
  departures: { from: string; to: string };
  /** Days of the blackouts (both inclusive). */
  blackouts: { from: string; to: string };
  now: Date;
}

/** A published tour with the version of what its calendar over a window reads. */
export interface VersionedPublishedTour extends PublishedTour {
  /**
   * Differs whenever the tour, or a departure or blackout of the window, has been written,
   * inserted or deleted since another reading: equal versions, equal rows.
   */
  version: string;
}
export type TourPatch = Partial<Omit<Tour, 'id' | 'createdAt' | 'updatedAt'>>;

export interface TourStore {
  /** Fails with CONFLICT (field `slug`) when the slug is taken in the workspace. */
  insert(workspaceId: string, tour: NewTour): Promise<Result<Tour>>;
  findById(workspaceId: string, id: string): Promise<Tour | null>;
  findBySlug(workspaceId: string, slug: string): Promise<Tour | null>;
  /** The workspace's tours among `ids` (in no order); unknown ids are left out. */
  findByIds(workspaceId: string, ids: readonly string[]): Promise<Tour[]>;
  update(workspaceId: string, id: string, patch: TourPatch): Promise<Result<Tour>>;
  list(workspaceId: string, page: PageRequest): Promise<Page<Tour>>;
  listPublic(workspaceId: string): Promise<Tour[]>;
  /** The public (`isPublic`) tour of that slug in the workspace of that slug, in one read; null else. */
  findPublicBySlugs(workspaceSlug: string, tourSlug: string): Promise<PublishedTour | null>;
  /** `findPublicBySlugs` and the version of the window's rows, in one statement. */
  findPublicCalendarTour(
    workspaceSlug: string,
    tourSlug: string,
    window: CalendarWindow,
  ): Promise<VersionedPublishedTour | null>;
  /** Ids of the tour's ticket types that bookings not CANCELLED still sell. */
  ticketTypesInUse(workspaceId: string, tourId: string): Promise<Set<string>>;
}

export interface NewDeparture {
  id: string;
  tourId: string;
  startsAt: Date;
  capacity: number;
  status: CreateDepartureInput['status'] & string;
  bookingCutoffAt: Date | null;
  prices?: DeparturePrice[];
  scheduleId?: string | null;
  /** The resources it runs on (see `chooseResources`); none by default. */
  resourceIds?: string[];
}

export interface DeparturePatch {
  startsAt?: Date;
  capacity?: number;
  status?: NonNullable<UpdateDepartureInput['status']>;
  bookingCutoffAt?: Date | null;
  guideId?: string | null;
  driverId?: string | null;
  vehicleId?: string | null;
  prices?: DeparturePrice[];
  resourceIds?: string[];
}

/**
 * A departure as a booking decides on it, read without a lock: its tour, the blackouts that may
 * close its day (its UTC date and a day either side), and its `version`, which every edit of the
 * departure bumps and seat changes leave. Held seats are not counted (a booking needs none).
 */
export interface DepartureForBooking {
  departure: Omit<Departure, 'heldSeats'>;
  tour: Tour;
  blackouts: BlackoutDay[];
  version: number;
  /**
   * The departure's tightest SHARED_SEATS resource as read: the seats left on it over the
   * departures that overlap this one there; null when it has none.
   */
  sharedSeats: SharedSeats | null;
}

/** Seats left on a shared resource around one departure. */
export interface SharedSeats {
  resourceId: string;
  seatsLeft: number;
}

/** Why `takeSeats` took nothing. */
export type SeatRefusal =
  /** The departure was edited or removed since that version, or seats came free since: decide again. */
  | { reason: 'stale' }
  /** Still at that version, with fewer seats left than asked. */
  | { reason: 'sold_out'; seatsRemaining: number }
  /** A SHARED_SEATS resource of the departure has too few seats left (docs/resources.md). */
  | { reason: 'resource_full'; resourceId: string };

/** A member (as guide or driver) or a vehicle: what a departure can be assigned. */
export type AssignedResource =
  | { memberId: string }
  | { vehicleId: string }
  /** A resource named in `resourceIds`; each side's interval is lengthened by its turnaround. */
  | { resourceId: string; turnaroundMinutes: number };

export interface DepartureFilter {
  from?: string;
  to?: string;
  tourId?: string;
}

export interface DepartureStore {
  insert(workspaceId: string, departure: NewDeparture): Promise<Departure>;
  findById(workspaceId: string, id: string): Promise<Departure | null>;
  /**
   * Locks the departure, lets `decide` turn its current state into a patch, and writes
   * the patch in the same transaction: seat-affecting writes are serialised per departure.
   */
  updateWith(
    workspaceId: string,
    id: string,
    decide: (current: Departure) => Result<DeparturePatch>,
  ): Promise<Result<Departure>>;
  list(workspaceId: string, filter: DepartureFilter, page: PageRequest): Promise<Page<Departure>>;
  /**
   * Locks the departure row for the rest of the current transaction (FOR NO KEY UPDATE, what a
   * seat write takes): seat writes and edits of one departure serialise; bookings still insert.
   */
  lock(workspaceId: string, id: string): Promise<Departure | null>;
  /** The departure with what a booking checks, in one read and without a lock; null when unknown. */
  findForBooking(workspaceId: string, id: string): Promise<DepartureForBooking | null>;
  /**
   * Takes `count` seats with the transaction's COMMIT, in the same round trip, if the departure
   * is still at `version` and has them: the departure's row is locked only while the commit
   * happens. If it is not, the commit fails and the unit of work runs the whole transaction
   * again (a `retryable` conflict), whose fresh read decides: booked, or 409 when full.
   */
  takeSeatsAtCommit(workspaceId: string, id: string, count: number, version: number): Promise<void>;
  /**
   * Takes `count` seats now if the departure is still at `version` and has them: one conditional
   * write, so the departure's row is locked from here to the end of the transaction. The seat
   * CHECK stays the backstop.
   */
  takeSeats(
    workspaceId: string,
    id: string,
    count: number,
    version: number,
  ): Promise<Result<true, SeatRefusal>>;
  /**
   * Adds `delta` (negative to release) to the booked seats. Fails with CONFLICT when the
   * database's seat constraint (0 <= booked <= capacity) refuses it: overbooking never lands.
   */
  adjustBookedSeats(workspaceId: string, id: string, delta: number): Promise<Result<Departure>>;
  /**
   * Departures of one tour a guest may book now (see `isBookable`; blackouts are the rule's
   * to apply), by start time, at most `limit` (default 500).
   */
  listBookable(
    workspaceId: string,
    tourId: string,
    filter: Omit<DepartureFilter, 'tourId'>,
    now: Date,
    limit?: number,
  ): Promise<Departure[]>;
  /**
   * Every departure `listBookable` would find (bookable at `now`) starting from the first to
   * before the last of `dayStarts` (ascending epoch ms, `calendarDayStarts`), however many (a
   * calendar must see each bookable day, however dense the tour), grouped: one row per day
   * (`dayStarts[i] <= start < dayStarts[i + 1]`), status, capacity, seats left and prices,
   * with their `count`, earliest start and earliest cutoff. Rows come in no particular order.
   */
  listCalendarDepartures(
    workspaceId: string,
    tourId: string,
    dayStarts: readonly number[],
    now: Date,
  ): Promise<CalendarDeparture[]>;
  /**
   * Departures (not CANCELLED) the resource is assigned to whose interval, startsAt ..
   * startsAt + the tour's durationMinutes, overlaps [start, end); `excludeId` is left out.
   */
  findOverlapping(
    workspaceId: string,
    resource: AssignedResource,
    start: Date,
    end: Date,
    excludeId: string,
  ): Promise<Departure[]>;
  /** Whether any departure not yet COMPLETED or CANCELLED is assigned the resource. */
  hasOpenAssignments(workspaceId: string, resource: AssignedResource): Promise<boolean>;
  /** Ids of the first 20 departures (by start) not yet COMPLETED or CANCELLED assigned the resource. */
  listOpenAssignments(workspaceId: string, resource: AssignedResource): Promise<string[]>;
  /**
   * Locks the departure's SHARED_SEATS resources (in id order, after the departure, as a
   * booking does) and answers the first whose seats the departures overlapping this one on it
   * exceed; null when none does. For a write that adds seats or moves them in time.
   */
  findFullSharedResource(workspaceId: string, id: string): Promise<string | null>;
}

export type NewResource = Omit<Resource, 'createdAt' | 'updatedAt'>;
export type ResourcePatch = Partial<Omit<NewResource, 'id' | 'kind'>>;

/** A departure on a resource that a smaller resource would leave oversold. */
export interface OversoldDeparture {
  id: string;
  /** Seats booked on the departures overlapping it on the resource, its own included. */
  seatsUsed: number;
}

export interface ResourceStore {
  insert(workspaceId: string, resource: NewResource): Promise<Resource>;
  findById(workspaceId: string, id: string): Promise<Resource | null>;
  /** The workspace's resources among `ids` (in no order); unknown ids are left out. */
  findByIds(workspaceId: string, ids: readonly string[]): Promise<Resource[]>;
  /** Locks the resource row (FOR NO KEY UPDATE, as a booking's seat check does). */
  lock(workspaceId: string, id: string): Promise<Resource | null>;
  update(workspaceId: string, id: string, patch: ResourcePatch): Promise<Resource | null>;
  /** Newest first. */
  list(workspaceId: string, filter: { kind?: ResourceKind }, page: PageRequest): Promise<Page<Resource>>;
  delete(workspaceId: string, id: string): Promise<boolean>;
  /**
   * The first (by name, then id) active resource of `kind` with at least `seats` seats that no
   * departure (not cancelled, but `excludeId`) occupies over [start, start + minutes + its
   * turnaround), the other's turnaround counted too; null when every one is taken.
   */
  findFree(
    workspaceId: string,
    want: {
      kind: ResourceKind;
      seats: number;
      start: Date;
      minutes: number;
      /** Resources not to answer (already chosen, or taken meanwhile). */
      excludeIds: readonly string[];
      excludeId?: string;
    },
  ): Promise<Resource | null>;
  /**
   * Departures (not cancelled, not finished) on the resource whose overlapping departures on it
   * would book more than `seats` with that `turnaroundMinutes`, by start.
   */
  findOversold(
    workspaceId: string,
    id: string,
    limits: { seats: number; turnaroundMinutes: number },
  ): Promise<OversoldDeparture[]>;
  /**
   * The first departure (by start; not cancelled) on the resource that another departure on it
   * overlaps, turnaround included; null when none does. For an EXCLUSIVE resource given to many
   * departures at once (a schedule).
   */
  findDoubleBooked(
    workspaceId: string,
    id: string,
    turnaroundMinutes: number,
  ): Promise<Pick<Departure, 'id' | 'tourId' | 'startsAt'> | null>;
}

/** A future departure of a schedule, locked, and whether any booking names it. */
export interface ScheduleDeparture {
  departure: Pick<Departure, 'id' | 'startsAt' | 'capacity' | 'status'>;
  booked: boolean;
}

export type NewSchedule = Omit<Schedule, 'status' | 'cancelledAt' | 'createdAt' | 'updatedAt'>;
export type SchedulePatch = Partial<Omit<Schedule, 'id' | 'tourId' | 'createdAt' | 'updatedAt'>>;

/** Schedules, and the departures they generate and change. */
export interface ScheduleStore {
  insert(workspaceId: string, schedule: NewSchedule): Promise<Schedule>;
  /** The tour's schedules, newest first. */
  list(workspaceId: string, tourId: string, page: PageRequest): Promise<Page<Schedule>>;
  findById(workspaceId: string, tourId: string, id: string): Promise<Schedule | null>;
  /**
   * Locks the tour (FOR NO KEY UPDATE, as `insertDepartures` does) for the rest of the
   * transaction, then counts its ACTIVE schedules ending on or after `today`: schedule
   * creations of one tour are serialised, so a count is never overrun.
   */
  lockAndCountActive(workspaceId: string, tourId: string, today: string): Promise<number>;
  /** Locks the schedule (FOR UPDATE) for the rest of the transaction: edits of one schedule are serialised. */
  lock(workspaceId: string, tourId: string, id: string): Promise<Schedule | null>;
  update(workspaceId: string, id: string, patch: SchedulePatch): Promise<Schedule>;
  /**
   * Inserts the departures (each naming its schedule), skipping a start at which the schedule
   * already has a departure (in any status) or the tour has one that is not CANCELLED, so
   * generating twice makes nothing twice; returns how many were inserted. Generations of one
   * tour are serialised.
   */
  insertDepartures(workspaceId: string, tourId: string, departures: NewDeparture[]): Promise<number>;
  /**
   * Locks (FOR UPDATE, in id order, as bookings lock departures) the schedule's departures
   * that start after `after` and are not CANCELLED, then tells which any booking names: read
   * under the locks, so no booking can land on one until the transaction ends.
   */
  lockFutureDepartures(workspaceId: string, scheduleId: string, after: Date): Promise<ScheduleDeparture[]>;
  /** Sets the capacity of departures the caller has locked and found unbooked. */
  resizeDepartures(workspaceId: string, ids: readonly string[], capacity: number): Promise<void>;
  /** Deletes departures the caller has locked and found unbooked; one another record names is cancelled instead. */
  removeDepartures(workspaceId: string, ids: readonly string[]): Promise<void>;
  /** Moves departures the caller has locked and found unbooked to CANCELLED. */
  cancelDepartures(workspaceId: string, ids: readonly string[]): Promise<void>;
}

/** Every store the catalog use cases touch; each use case names the ones it needs. */
export interface CatalogStores {
  tours: TourStore;
  departures: DepartureStore;
  schedules: ScheduleStore;
  workspaces: WorkspaceStore;
  blackoutDates: BlackoutDateStore;
  resources: ResourceStore;
}

/** What a catalog use case takes: a unit of work over the stores `K` it names, and the clock. */
export interface CatalogDeps<K extends keyof CatalogStores = keyof CatalogStores> {
  uow: UnitOfWork<Pick<CatalogStores, K>>;
  clock: Clock;
}
