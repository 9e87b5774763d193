import type { ApiTokenRecord, MemberRecord, Workspace } from '../access/workspace-schemas.js';
import type { Booking, BookingHistoryEntry, BookingSort } from '../bookings/schemas.js';
import type {
  Availability,
  CreateAvailabilityInput,
  UpdateAvailabilityInput,
} from '../catalog/availability-schemas.js';
import type { Tour } from '../catalog/tour-schemas.js';
import type { Customer } from '../crm/customer-schemas.js';
import type { Company, CrmTask, CustomerNote, Lead, TimelineEntryType } from '../crm/schemas.js';
import type {
  BlackoutDate,
  Guide,
  Incident,
  IncidentSeverity,
  IncidentStatus,
  Itinerary,
  ItineraryItem,
  TimeOff,
  Vehicle,
  VehicleStatus,
  Vendor,
} from '../operations/schemas.js';
import type { WebhookDelivery, WebhookEndpoint } from '../webhooks/schemas.js';
import type { BookingStatus, PaymentStatus, Role } from './enums.js';
import type { Result } from './result.js';

export interface Clock {
  now(): Date;
}

/** Position in a keyset-ordered list: the sort value and id of the last item seen. */
export interface Keyset {
  value: string | number;
  id: string;
}

export interface PageRequest {
  limit: number;
  after: Keyset | null;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Where the next page starts; null on the last page. */
  next: Keyset | null;
}

export type NewTour = Omit<Tour, 'createdAt' | 'updatedAt'>;
export type TourPatch = Partial<Omit<Tour, 'id' | 'createdAt' | 'updatedAt'>>;

export interface TourStore {
  /** Fails with CONFLICT (field `slug`) when the slug is taken in the workspace. */
  insert(workspaceId: string, tour: NewTour): Promise<Result<Tour>>;
  findById(workspaceId: string, id: string): Promise<Tour | null>;
  findBySlug(workspaceId: string, slug: string): Promise<Tour | null>;
  update(workspaceId: string, id: string, patch: TourPatch): Promise<Result<Tour>>;
  list(workspaceId: string, page: PageRequest): Promise<Page<Tour>>;
  listPublic(workspaceId: string): Promise<Tour[]>;
}

export interface NewAvailability {
  id: string;
  tourId: string;
  startsAt: Date;
  capacity: number;
  status: CreateAvailabilityInput['status'] & string;
  bookingCutoffAt: Date | null;
}

export interface AvailabilityPatch {
  startsAt?: Date;
  capacity?: number;
  status?: NonNullable<UpdateAvailabilityInput['status']>;
  bookingCutoffAt?: Date | null;
  guideId?: string | null;
  driverId?: string | null;
  vehicleId?: string | null;
}

/** A member (as guide or driver) or a vehicle: what a departure can be assigned. */
export type AssignedResource = { memberId: string } | { vehicleId: string };

export interface AvailabilityFilter {
  from?: string;
  to?: string;
  tourId?: string;
}

export interface AvailabilityStore {
  insert(workspaceId: string, departure: NewAvailability): Promise<Availability>;
  findById(workspaceId: string, id: string): Promise<Availability | null>;
  /**
   * Locks the departure, lets `decide` turn its current state into a patch, and writes
   * the patch in the same transaction: seat-affecting writes are serialised per departure.
   */
  updateWith(
    workspaceId: string,
    id: string,
    decide: (current: Availability) => Result<AvailabilityPatch>,
  ): Promise<Result<Availability>>;
  list(workspaceId: string, filter: AvailabilityFilter, page: PageRequest): Promise<Page<Availability>>;
  /** Locks the departure row (FOR UPDATE) for the rest of the current transaction. */
  lock(workspaceId: string, id: string): Promise<Availability | null>;
  /**
   * Adds `delta` (negative to release) to the booked seats. Fails with CONFLICT when the
   * database's seat constraint (0 <= booked <= capacity) refuses it: overbooking never lands.
   */
  adjustBookedSeats(workspaceId: string, id: string, delta: number): Promise<Result<Availability>>;
  /** Departures of one tour a guest may book now (see `isBookable`), by start time. */
  listBookable(
    workspaceId: string,
    tourId: string,
    filter: Omit<AvailabilityFilter, 'tourId'>,
    now: Date,
  ): Promise<Availability[]>;
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
  ): Promise<Availability[]>;
  /** Whether any departure not yet COMPLETED or CANCELLED is assigned the resource. */
  hasOpenAssignments(workspaceId: string, resource: AssignedResource): Promise<boolean>;
}

export type NewCustomer = Pick<Customer, 'id' | 'name' | 'email' | 'phone' | 'tags' | 'marketingConsent'>;

export type CustomerPatch = Partial<
  Pick<Customer, 'name' | 'phone' | 'tags' | 'marketingConsent' | 'companyId'>
>;

export interface CustomerStore {
  /** Fails with CONFLICT (field `email`) when the e-mail is taken in the workspace. */
  insert(workspaceId: string, customer: NewCustomer): Promise<Result<Customer>>;
  findById(workspaceId: string, id: string): Promise<Customer | null>;
  list(workspaceId: string, filter: { q?: string }, page: PageRequest): Promise<Page<Customer>>;
  /** The workspace's customer with this e-mail (case-insensitive), created from `customer` if none; race-safe. */
  findOrCreateByEmail(workspaceId: string, customer: NewCustomer): Promise<Customer>;
  /** Applies the patch and sets `updatedAt`; null when no such customer. */
  update(workspaceId: string, id: string, patch: CustomerPatch): Promise<Customer | null>;
  /**
   * Recomputes `totalBookings` (bookings not CANCELLED) and `lifetimeValue` (paid minus
   * refunded) from the bookings, so they stay true whatever changed.
   */
  refreshStats(workspaceId: string, customerId: string): Promise<void>;
}

export interface WorkspaceStore {
  /** Fails with CONFLICT (field `slug`) when the slug is taken. */
  insert(workspace: Omit<Workspace, 'createdAt'>): Promise<Result<Workspace>>;
  findById(id: string): Promise<Workspace | null>;
  findBySlug(slug: string): Promise<Workspace | null>;
}

export interface MemberStore {
  /** Fails with CONFLICT (field `email`) when the e-mail is taken in the workspace. */
  insert(member: Omit<MemberRecord, 'createdAt'>): Promise<Result<MemberRecord>>;
  findById(workspaceId: string, id: string): Promise<MemberRecord | null>;
  /**
   * Locks the member row (FOR UPDATE) for the rest of the transaction: assignments of one
   * member serialise. False when no such member.
   */
  lock(workspaceId: string, id: string): Promise<boolean>;
  /** Every membership of one e-mail (case-insensitive), across workspaces. */
  findByEmail(email: string): Promise<MemberRecord[]>;
  /** Newest first. */
  list(workspaceId: string, page: PageRequest): Promise<Page<MemberRecord>>;
  /**
   * Locks every member of the workspace (FOR UPDATE) for the rest of the transaction and
   * returns them: role changes and removals serialise per workspace (the last ADMIN stays).
   */
  lockAll(workspaceId: string): Promise<MemberRecord[]>;
  updateRole(workspaceId: string, id: string, role: Role): Promise<MemberRecord | null>;
  /** False when there was no such member. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewCompany = Omit<Company, 'createdAt' | 'updatedAt'>;
export type CompanyPatch = Partial<Omit<Company, 'id' | 'createdAt' | 'updatedAt'>>;

export interface CompanyStore {
  /** Fails with CONFLICT (field `domain`) when another company of the workspace has the domain. */
  insert(workspaceId: string, company: NewCompany): Promise<Result<Company>>;
  findById(workspaceId: string, id: string): Promise<Company | null>;
  /** Newest first; `q` is a case-insensitive substring of the name or domain. */
  list(workspaceId: string, filter: { q?: string }, page: PageRequest): Promise<Page<Company>>;
  /** Null when no such company; CONFLICT as for insert. */
  update(workspaceId: string, id: string, patch: CompanyPatch): Promise<Result<Company | null>>;
  /** Customers, leads and tasks that named it keep existing, with `companyId` null. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewLead = Omit<Lead, 'createdAt' | 'updatedAt'>;
export type LeadPatch = Partial<Omit<Lead, 'id' | 'createdAt' | 'updatedAt'>>;

export interface LeadStore {
  insert(workspaceId: string, lead: NewLead): Promise<Lead>;
  findById(workspaceId: string, id: string): Promise<Lead | null>;
  /** Locks the lead row (FOR UPDATE) for the rest of the transaction. */
  lock(workspaceId: string, id: string): Promise<Lead | null>;
  /** Newest first; `q` is a case-insensitive substring of the name, e-mail or phone. */
  list(
    workspaceId: string,
    filter: { status?: Lead['status']; q?: string },
    page: PageRequest,
  ): Promise<Page<Lead>>;
  update(workspaceId: string, id: string, patch: LeadPatch): Promise<Lead | null>;
  /** Tasks linked to it keep existing, with `leadId` null. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewCrmTask = Omit<CrmTask, 'createdAt' | 'updatedAt'>;
export type CrmTaskPatch = Partial<Omit<CrmTask, 'id' | 'createdAt' | 'updatedAt'>>;

export interface CrmTaskFilter {
  status?: CrmTask['status'];
  customerId?: string;
  leadId?: string;
  /** Inclusive UTC calendar dates of `dueAt`. */
  from?: string;
  to?: string;
}

export interface CrmTaskStore {
  insert(workspaceId: string, task: NewCrmTask): Promise<CrmTask>;
  findById(workspaceId: string, id: string): Promise<CrmTask | null>;
  /** Newest first. */
  list(workspaceId: string, filter: CrmTaskFilter, page: PageRequest): Promise<Page<CrmTask>>;
  update(workspaceId: string, id: string, patch: CrmTaskPatch): Promise<CrmTask | null>;
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export interface CustomerNoteStore {
  insert(workspaceId: string, note: Omit<CustomerNote, 'createdAt'>): Promise<CustomerNote>;
}

/** One event of a customer's history as the store reads it; the domain writes its summary. */
export interface TimelineRecord {
  id: string;
  type: TimelineEntryType;
  occurredAt: string;
  bookingId: string | null;
  data: Record<string, unknown>;
}

export interface CustomerTimelineStore {
  /** Every source merged, newest first: `(occurredAt, id)` descending, strictly after the cursor. */
  list(workspaceId: string, customerId: string, page: PageRequest): Promise<Page<TimelineRecord>>;
}

export interface ApiTokenStore {
  insert(token: Omit<ApiTokenRecord, 'createdAt' | 'revokedAt' | 'lastUsedAt'>): Promise<ApiTokenRecord>;
  findBySecretHash(secretHash: string): Promise<ApiTokenRecord | null>;
  /**
   * The token by id. With `shareLock`, the row stays share-locked to the end of the current
   * transaction, so a concurrent revoke waits until that transaction ends (and one already
   * committed is seen).
   */
  findById(id: string, options?: { shareLock?: boolean }): Promise<ApiTokenRecord | null>;
  /** The workspace's tokens that are not revoked, newest first. */
  listActive(workspaceId: string, page: PageRequest): Promise<Page<ApiTokenRecord>>;
  /** Marks the token revoked (only within `workspaceId`, when given); null when no such token. */
  revoke(id: string, at: Date, workspaceId?: string): Promise<ApiTokenRecord | null>;
  /** Records a use of the token. */
  touch(id: string, at: Date): Promise<void>;
}

/** A workspace a session may act in: the member there and its current role. */
export interface SessionMembership {
  memberId: string;
  workspaceId: string;
  workspaceSlug: string;
  workspaceName: string;
  role: Role;
}

/** A sign-in of the first-party application; only the hash of its secret (the cookie) is kept. */
export interface SessionRecord {
  id: string;
  /** The e-mail signed in with, lower-cased. */
  email: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** Slides forward with use, never past the absolute lifetime. */
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface SessionWithMemberships extends SessionRecord {
  memberships: SessionMembership[];
}

export interface SessionStore {
  insert(
    session: Omit<SessionRecord, 'lastSeenAt' | 'revokedAt'> & { secretHash: string },
    memberIds: readonly string[],
  ): Promise<SessionWithMemberships>;
  findBySecretHash(secretHash: string): Promise<SessionWithMemberships | null>;
  /** Like `ApiTokenStore.findById`: with `shareLock`, a concurrent revoke waits for the current transaction. */
  findById(id: string, options?: { shareLock?: boolean }): Promise<SessionRecord | null>;
  touch(id: string, seenAt: Date, expiresAt: Date): Promise<void>;
  revoke(id: string, at: Date): Promise<void>;
  /** Ends every live session that includes the member; returns how many. */
  revokeForMember(memberId: string, at: Date): Promise<number>;
  /** Deletes sessions that expired or were revoked before `cutoff`; returns how many. */
  deleteEndedBefore(cutoff: Date): Promise<number>;
}

export interface DateRange {
  /** Calendar dates `YYYY-MM-DD`, both inclusive. */
  from?: string;
  to?: string;
}

export interface BlackoutDateStore {
  /** Fails with CONFLICT (field `date`) when the same scope (tour or workspace) already has the day. */
  insert(workspaceId: string, blackout: Omit<BlackoutDate, 'createdAt'>): Promise<Result<BlackoutDate>>;
  /** By date, then id. `tourId` keeps what applies to that tour: its own and workspace-wide days. */
  list(
    workspaceId: string,
    filter: DateRange & { tourId?: string },
    page: PageRequest,
  ): Promise<Page<BlackoutDate>>;
  /** Every blackout that applies to the tour within the range (for the bookable rule). */
  listApplying(workspaceId: string, tourId: string, range: DateRange): Promise<BlackoutDate[]>;
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewGuide = Omit<Guide, 'email' | 'createdAt' | 'updatedAt'>;
export type GuidePatch = Partial<Omit<NewGuide, 'memberId'>>;

export interface GuideStore {
  /** Fails with CONFLICT (field `memberId`) when the member already has a guide profile. */
  insert(workspaceId: string, guide: NewGuide): Promise<Result<Guide>>;
  findByMemberId(workspaceId: string, memberId: string): Promise<Guide | null>;
  update(workspaceId: string, memberId: string, patch: GuidePatch): Promise<Guide | null>;
  /** Newest first. */
  list(workspaceId: string, filter: { activeOnly: boolean }, page: PageRequest): Promise<Page<Guide>>;
}

export interface TimeOffStore {
  insert(workspaceId: string, timeOff: Omit<TimeOff, 'createdAt'>): Promise<TimeOff>;
  /** By startsAt, then id; a range keeps periods overlapping its days. */
  list(workspaceId: string, memberId: string, range: DateRange, page: PageRequest): Promise<Page<TimeOff>>;
  /** Periods of the member overlapping [start, end). */
  findOverlapping(workspaceId: string, memberId: string, start: Date, end: Date): Promise<TimeOff[]>;
  delete(workspaceId: string, memberId: string, id: string): Promise<boolean>;
}

export type NewVehicle = Omit<Vehicle, 'createdAt' | 'updatedAt'>;
export type VehiclePatch = Partial<Omit<NewVehicle, 'id'>>;

export interface VehicleStore {
  /** Fails with CONFLICT (field `registration`) when the registration is taken in the workspace. */
  insert(workspaceId: string, vehicle: NewVehicle): Promise<Result<Vehicle>>;
  findById(workspaceId: string, id: string): Promise<Vehicle | null>;
  /** Locks the vehicle row (FOR UPDATE): assignments of one vehicle serialise. */
  lock(workspaceId: string, id: string): Promise<Vehicle | null>;
  update(workspaceId: string, id: string, patch: VehiclePatch): Promise<Result<Vehicle | null>>;
  /** Newest first. */
  list(workspaceId: string, filter: { status?: VehicleStatus }, page: PageRequest): Promise<Page<Vehicle>>;
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewVendor = Omit<Vendor, 'createdAt' | 'updatedAt'>;
export type VendorPatch = Partial<Omit<NewVendor, 'id'>>;

export interface VendorStore {
  insert(workspaceId: string, vendor: NewVendor): Promise<Vendor>;
  findById(workspaceId: string, id: string): Promise<Vendor | null>;
  update(workspaceId: string, id: string, patch: VendorPatch): Promise<Vendor | null>;
  /** Newest first. */
  list(
    workspaceId: string,
    filter: { category?: Vendor['category'] },
    page: PageRequest,
  ): Promise<Page<Vendor>>;
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewIncident = Omit<Incident, 'createdAt' | 'updatedAt'>;
export type IncidentPatch = Partial<
  Pick<Incident, 'status' | 'severity' | 'title' | 'description' | 'resolvedAt'>
>;

export interface IncidentFilter extends DateRange {
  severity?: IncidentSeverity;
  status?: IncidentStatus;
}

export interface IncidentStore {
  insert(workspaceId: string, incident: NewIncident): Promise<Incident>;
  findById(workspaceId: string, id: string): Promise<Incident | null>;
  /** Locks the incident row (FOR UPDATE). */
  lock(workspaceId: string, id: string): Promise<Incident | null>;
  update(workspaceId: string, id: string, patch: IncidentPatch): Promise<Incident>;
  /** Most recent `occurredAt` first; `from`/`to` are UTC dates of `occurredAt`. */
  list(workspaceId: string, filter: IncidentFilter, page: PageRequest): Promise<Page<Incident>>;
}

/** An itinerary as stored: without its items, with its workspace. */
export interface ItineraryRecord extends Omit<Itinerary, 'items'> {
  workspaceId: string;
}
export type NewItinerary = Omit<ItineraryRecord, 'createdAt' | 'updatedAt'>;
export type ItineraryPatch = Partial<Pick<Itinerary, 'title' | 'startsOn' | 'endsOn' | 'notes'>>;
export type NewItineraryItem = Omit<ItineraryItem, 'createdAt' | 'updatedAt'>;
export type ItineraryItemPatch = Partial<Omit<NewItineraryItem, 'id' | 'itineraryId'>>;

export interface ItineraryStore {
  insert(itinerary: NewItinerary): Promise<ItineraryRecord>;
  findById(workspaceId: string, id: string): Promise<ItineraryRecord | null>;
  findByPublicToken(publicToken: string): Promise<ItineraryRecord | null>;
  update(workspaceId: string, id: string, patch: ItineraryPatch): Promise<ItineraryRecord | null>;
  /** By startsOn, then id; `from`/`to` keep trips overlapping those days. */
  list(
    workspaceId: string,
    filter: DateRange & { customerId?: string },
    page: PageRequest,
  ): Promise<Page<ItineraryRecord>>;
  insertItem(workspaceId: string, item: NewItineraryItem): Promise<ItineraryItem>;
  findItem(workspaceId: string, itineraryId: string, id: string): Promise<ItineraryItem | null>;
  updateItem(
    workspaceId: string,
    itineraryId: string,
    id: string,
    patch: ItineraryItemPatch,
  ): Promise<ItineraryItem | null>;
  deleteItem(workspaceId: string, itineraryId: string, id: string): Promise<boolean>;
  /** By startsAt, then creation, then id. */
  listItems(workspaceId: string, itineraryId: string): Promise<ItineraryItem[]>;
}

/** Every store, bound to one database handle (a pool or an open transaction). */
export interface Stores {
  tours: TourStore;
  availability: AvailabilityStore;
  customers: CustomerStore;
  workspaces: WorkspaceStore;
  members: MemberStore;
  apiTokens: ApiTokenStore;
  sessions: SessionStore;
  bookings: BookingStore;
  bookingHistory: BookingHistoryStore;
  payments: PaymentStore;
  outbox: OutboxStore;
  idempotency: IdempotencyStore;
  webhookEndpoints: WebhookEndpointStore;
  webhookDeliveries: WebhookDeliveryStore;
  companies: CompanyStore;
  leads: LeadStore;
  crmTasks: CrmTaskStore;
  customerNotes: CustomerNoteStore;
  customerTimeline: CustomerTimelineStore;
  blackoutDates: BlackoutDateStore;
  guides: GuideStore;
  timeOff: TimeOffStore;
  vehicles: VehicleStore;
  vendors: VendorStore;
  incidents: IncidentStore;
  itineraries: ItineraryStore;
  /**
   * Runs `work` with stores bound to one transaction (a savepoint when already in one):
   * committed when it returns ok, rolled back when it returns a failure or throws.
   */
  transaction<T>(work: (stores: Stores) => Promise<Result<T>>): Promise<Result<T>>;
}

/** A booking as stored: the API shape (without one-time links) plus what only the service needs. */
export interface BookingRecord extends Omit<Booking, 'checkoutUrl' | 'paymentLinkUrl'> {
  workspaceId: string;
  /** Bumped by every write; the ETag of the booking. */
  version: number;
}

export type NewBooking = Omit<BookingRecord, 'createdAt' | 'updatedAt' | 'version'>;
export type BookingPatch = Partial<
  Omit<
    BookingRecord,
    'id' | 'workspaceId' | 'customerId' | 'paymentMode' | 'createdAt' | 'updatedAt' | 'version'
  >
>;

export interface BookingFilter {
  from?: string;
  to?: string;
  status?: BookingStatus;
  paymentStatus?: PaymentStatus;
}

export interface BookingStore {
  insert(booking: NewBooking): Promise<BookingRecord>;
  findById(workspaceId: string, id: string): Promise<BookingRecord | null>;
  findByPublicToken(publicToken: string): Promise<BookingRecord | null>;
  /** Locks the booking row (FOR UPDATE). Lock its departure(s) first: departures, then bookings. */
  lock(workspaceId: string, id: string): Promise<BookingRecord | null>;
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
  /** PENDING bookings whose `expiresAt` <= now, oldest first; one departure's, or any workspace's. */
  findExpiredHolds(
    now: Date,
    options: { workspaceId?: string; availabilityId?: string; limit: number },
  ): Promise<BookingRecord[]>;
}

export type Actor = BookingHistoryEntry['actor'];

export interface BookingHistoryStore {
  append(entry: Omit<BookingHistoryEntry, 'createdAt'> & { workspaceId: string }): Promise<void>;
  list(workspaceId: string, bookingId: string, page: PageRequest): Promise<Page<BookingHistoryEntry>>;
}

export const PAYMENT_PURPOSES = ['FULL', 'DEPOSIT', 'BALANCE'] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];

/** A hosted payment page for one amount of one booking (checkout, payment link or retry). */
export interface PaymentSession {
  id: string;
  /** Unguessable; the page's address. */
  token: string;
  workspaceId: string;
  bookingId: string;
  amount: number;
  currency: string;
  purpose: PaymentPurpose;
  status: 'OPEN' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED';
  expiresAt: Date;
  createdAt: Date;
  completedAt: Date | null;
}

export interface PaymentRecord {
  id: string;
  workspaceId: string;
  bookingId: string;
  sessionId: string | null;
  kind: 'PAYMENT' | 'REFUND';
  amount: number;
  currency: string;
  reason: string | null;
  createdAt: Date;
}

export interface PaymentStore {
  insertSession(session: Omit<PaymentSession, 'createdAt' | 'completedAt'>): Promise<PaymentSession>;
  findSessionByToken(token: string): Promise<PaymentSession | null>;
  /** Locks the session row (FOR UPDATE). Lock the booking's departure and the booking first. */
  lockSession(id: string): Promise<PaymentSession | null>;
  updateSession(
    id: string,
    patch: Pick<PaymentSession, 'status'> & { completedAt?: Date | null },
  ): Promise<PaymentSession>;
  /** Marks the booking's OPEN sessions EXPIRED (a fresh one replaces them). */
  expireOpenSessions(bookingId: string): Promise<void>;
  insertPayment(payment: Omit<PaymentRecord, 'createdAt'>): Promise<PaymentRecord>;
  listPayments(workspaceId: string, bookingId: string): Promise<PaymentRecord[]>;
}

/** The envelope of decisions §8; written in the same transaction as the change it reports. */
export interface OutboxEvent {
  id: string;
  type: string;
  createdAt: string;
  workspaceId: string;
  data: unknown;
}

export interface OutboxStore {
  /** `aggregateId` (the booking id) orders delivery per booking. */
  append(event: OutboxEvent, aggregateId: string): Promise<void>;
}

export interface IdempotencyRecord {
  scope: string;
  key: string;
  fingerprint: string;
  responseStatus: number;
  responseBody: unknown;
  createdAt: Date;
}

export interface IdempotencyStore {
  /** Takes the key for the current transaction (released at its end); false if another transaction holds it. */
  tryLock(scope: string, key: string): Promise<boolean>;
  /** The completed record for the key, if it was saved at or after `notBefore`. */
  find(scope: string, key: string, notBefore: Date): Promise<IdempotencyRecord | null>;
  /** Saves (or replaces an expired) record. */
  save(record: Omit<IdempotencyRecord, 'createdAt'>): Promise<void>;
  deleteOlderThan(cutoff: Date): Promise<number>;
}

/** An endpoint as stored: its signing secrets are kept (they sign every delivery). */
export interface WebhookEndpointRecord extends WebhookEndpoint {
  workspaceId: string;
  secret: string;
  previousSecret: string | null;
}

export type WebhookEndpointPatch = Partial<
  Pick<
    WebhookEndpointRecord,
    | 'url'
    | 'events'
    | 'description'
    | 'enabled'
    | 'disabledReason'
    | 'secret'
    | 'previousSecret'
    | 'previousSecretExpiresAt'
  >
>;

export interface WebhookEndpointStore {
  insert(endpoint: Omit<WebhookEndpointRecord, 'createdAt' | 'updatedAt'>): Promise<WebhookEndpointRecord>;
  findById(workspaceId: string, id: string): Promise<WebhookEndpointRecord | null>;
  /** Newest first. */
  list(workspaceId: string, page: PageRequest): Promise<Page<WebhookEndpointRecord>>;
  update(workspaceId: string, id: string, patch: WebhookEndpointPatch): Promise<WebhookEndpointRecord | null>;
  /** Deletes the endpoint and its pending deliveries; false when there was none. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export interface WebhookDeliveryRecord extends WebhookDelivery {
  workspaceId: string;
  aggregateId: string;
  /** The outbox sequence of the event: deliveries of one aggregate go out in this order. */
  eventSeq: number;
}

/** A delivery taken by one worker for one attempt, with what it needs to send it. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRecord;
  endpoint: WebhookEndpointRecord;
  event: OutboxEvent;
}

export interface DeliveryAttemptResult {
  status: WebhookDelivery['status'];
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
}

export interface WebhookDeliveryStore {
  /**
   * Turns outbox events nobody has fanned out yet into one PENDING delivery per enabled,
   * subscribed endpoint of their workspace (in outbox order, SKIP LOCKED so several workers
   * share the work); returns how many events it took.
   */
  fanOut(limit: number): Promise<number>;
  /**
   * Takes up to `limit` due deliveries of enabled endpoints for `leaseMs` (a worker that dies
   * loses the lease and another retries). A delivery waits while an earlier event of the same
   * aggregate to the same endpoint is still PENDING: order per booking holds.
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /**
   * Records attempt number `result.attempts`; ignored unless the delivery has made exactly one
   * fewer (a worker that lost its lease never overwrites a later attempt's result).
   */
  recordAttempt(id: string, result: DeliveryAttemptResult): Promise<void>;
  /** Newest first. */
  list(workspaceId: string, endpointId: string, page: PageRequest): Promise<Page<WebhookDeliveryRecord>>;
  /** Puts a delivery back in the queue, due now; null when no such delivery. */
  resend(
    workspaceId: string,
    endpointId: string,
    id: string,
    now: Date,
  ): Promise<WebhookDeliveryRecord | null>;
}
