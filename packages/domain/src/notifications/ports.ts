import type { WorkspaceStore } from '../access/index.js';
import type { BookingStore } from '../bookings/index.js';
import type { TourStore } from '../catalog/index.js';
import type { CustomerStore } from '../crm/index.js';
import type { OutboxEvent } from '../events/index.js';
import type { PublicBooking } from '../guests/index.js';
import type { GuestEmail, GuestEmailKind, GuestEmailRequest, NewGuestEmail } from './schemas.js';

/** A booking the worker may write to: found by a query, then decided by the pure rules. */
export interface GuestEmailCandidate {
  workspaceId: string;
  bookingId: string;
}

export interface GuestEmailAttemptResult {
  status: 'PENDING' | 'SENT' | 'FAILED';
  /** Attempts made, this one included. */
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  sentAt: Date | null;
}

export interface GuestEmailClaim {
  limit: number;
  /** A claimed message is another worker's to send if this one has not finished by then. */
  leaseMs: number;
  /** At most this many sending attempts start per workspace in any 60 seconds (all workers together). */
  perWorkspacePerMinute: number;
}

export interface GuestEmailStore {
  /**
   * `notification.email_requested` events not yet turned into messages, oldest first, locked
   * for the caller's transaction (SKIP LOCKED: concurrent workers take disjoint batches).
   */
  takeRequests(limit: number): Promise<OutboxEvent[]>;
  /** The events are done with (messages written, or nothing to write). */
  markRequestsPlanned(eventIds: readonly string[]): Promise<void>;
  /** Writes the messages; one whose dedupe key and recipient exist already is skipped. Returns how many were new. */
  insert(emails: readonly NewGuestEmail[]): Promise<number>;
  /**
   * CONFIRMED bookings whose departure starts within their tour's `reminderHoursBefore`, not
   * opted out of reminders and without a reminder for that start yet.
   */
  findReminderCandidates(now: Date, limit: number): Promise<GuestEmailCandidate[]>;
  /** Unpaid public holds (PENDING with a holder) that expire within `withinMs` and have no warning yet. */
  findHoldWarningCandidates(now: Date, withinMs: number, limit: number): Promise<GuestEmailCandidate[]>;
  /**
   * Takes due PENDING messages under a lease, oldest first, within each workspace's rate; a
   * message waits while an earlier one to the same booking is still PENDING (order per booking).
   */
  claimDue(now: Date, claim: GuestEmailClaim): Promise<GuestEmail[]>;
  /** Records attempt number `result.attempts`; ignored unless exactly one fewer was recorded (a lost lease). */
  recordAttempt(id: string, result: GuestEmailAttemptResult): Promise<void>;
  /** Newest first, every workspace's (the development outbox page). */
  listRecent(limit: number): Promise<GuestEmail[]>;
  findById(id: string): Promise<GuestEmail | null>;
  /** The booking's guest gets no more reminders (List-Unsubscribe); idempotent. */
  optOutOfReminders(workspaceId: string, bookingId: string): Promise<void>;
}

/** The stores the planning use cases read and write. */
export interface NotificationStores {
  guestEmails: GuestEmailStore;
  bookings: BookingStore;
  tours: TourStore;
  customers: CustomerStore;
  workspaces: WorkspaceStore;
}

/** Links a message may carry: the guest's booking page (its token is the only one in a message). */
export interface GuestLinks {
  bookingPage: string | null;
  calendarFile: string | null;
  /** Reminders only: stops further reminders for the booking. */
  unsubscribe: string | null;
}

/**
 * What a template is given: the guest's view of the booking (never the operator's notes or
 * other ids), whom it greets, who sends it, the links, and the request's details.
 */
export interface GuestEmailContext {
  kind: GuestEmailKind;
  /** The event-driven kinds' details; null for the hold warning and the reminder. */
  request: GuestEmailRequest | null;
  booking: PublicBooking;
  customerName: string;
  workspaceName: string;
  /** Where the guest's reply goes (the workspace's reply-to); null: nowhere a person reads, so the e-mail does not invite one. */
  replyTo: string | null;
  links: GuestLinks;
  now: Date;
}

export interface ComposedEmail {
  subject: string;
  text: string;
  html: string;
}

/** Renders a message (the templates, outside the domain): pure, the same context gives the same text. */
export type GuestEmailComposer = (context: GuestEmailContext) => ComposedEmail;
