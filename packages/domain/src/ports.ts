import type { BookingStatus, PaymentStatus, Role } from './enums.js';
import type { Result } from './result.js';
import type {
  Availability,
  CreateAvailabilityInput,
  UpdateAvailabilityInput,
} from './schemas/availability.js';
import type { Booking, BookingHistoryEntry, BookingSort } from './schemas/booking.js';
import type { Customer } from './schemas/customer.js';
import type { Tour } from './schemas/tour.js';
import type { WebhookDelivery, WebhookEndpoint } from './schemas/webhook.js';
import type { ApiTokenRecord, MemberRecord, Workspace } from './schemas/workspace.js';

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
}

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
}

export type NewCustomer = Pick<Customer, 'id' | 'name' | 'email' | 'phone' | 'tags' | 'marketingConsent'>;

export interface CustomerStore {
  /** Fails with CONFLICT (field `email`) when the e-mail is taken in the workspace. */
  insert(workspaceId: string, customer: NewCustomer): Promise<Result<Customer>>;
  findById(workspaceId: string, id: string): Promise<Customer | null>;
  list(workspaceId: string, filter: { q?: string }, page: PageRequest): Promise<Page<Customer>>;
  /** The workspace's customer with this e-mail (case-insensitive), created from `customer` if none; race-safe. */
  findOrCreateByEmail(workspaceId: string, customer: NewCustomer): Promise<Customer>;
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
