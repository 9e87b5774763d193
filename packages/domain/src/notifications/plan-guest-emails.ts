import * as v from 'valibot';
import type { Workspace } from '../access/index.js';
import type { BookingRecord } from '../bookings/index.js';
import type { Tour } from '../catalog/index.js';
import type { Customer } from '../crm/index.js';
import type { OutboxEvent } from '../events/index.js';
import { toPublicBooking } from '../guests/index.js';
import { newId } from '../shared/ids.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { ok } from '../shared/result.js';
import type { GuestEmailComposer, NotificationStores } from './ports.js';
import {
  calendarAttachment,
  guestLinks,
  holdWarningDue,
  holdWarningKey,
  recipientOf,
  reminderDue,
  reminderKey,
  unsubscribeHeaders,
} from './rules.js';
import {
  type GuestEmailKind,
  type GuestEmailRequest,
  GuestEmailRequestSchema,
  type NewGuestEmail,
} from './schemas.js';

export interface GuestEmailSettings {
  /** Base of the guest's links (`PUBLIC_BASE_URL`). */
  publicBaseUrl: string;
  /** No SMTP (`SMTP_URL` unset): messages are written KEPT, for `/dev/mail`, and never sent. */
  keep: boolean;
  /** An unpaid public hold is warned this many minutes before it lapses. */
  holdWarningMinutes: number;
}

export interface PlanGuestEmailsDeps {
  /** On the pool: each run opens the transactions it needs. */
  uow: UnitOfWork<NotificationStores>;
  clock: Clock;
  compose: GuestEmailComposer;
  settings: GuestEmailSettings;
}

/** Everything a message is about, read within one workspace. */
interface Subject {
  booking: BookingRecord;
  tour: Tour | null;
  customer: Customer;
  workspace: Workspace;
}

const RequestedSchema = v.intersect([
  GuestEmailRequestSchema,
  v.object({ bookingId: v.string(), customerId: v.string() }),
]);

/** The booking, its tour, its customer and its workspace, each read in the booking's workspace only. */
async function loadSubject(
  stores: NotificationStores,
  workspaceId: string,
  bookingId: string,
): Promise<Subject | null> {
  const booking = await stores.bookings.findById(workspaceId, bookingId);
  if (!booking) return null;
  const [tour, customer, workspace] = await Promise.all([
    stores.tours.findById(workspaceId, booking.tourId),
    stores.customers.findById(workspaceId, booking.customerId),
    stores.workspaces.findById(workspaceId),
  ]);
  return customer && workspace ? { booking, tour, customer, workspace } : null;
}

/** The message itself: the composer's text, and what the rules add (links, calendar, headers). */
function writeEmail(
  deps: Pick<PlanGuestEmailsDeps, 'clock' | 'compose' | 'settings'>,
  subject: Subject,
  kind: GuestEmailKind,
  request: GuestEmailRequest | null,
  dedupeKey: string,
): NewGuestEmail | null {
  const recipient = recipientOf(subject.customer);
  if (!recipient) return null;
  const now = deps.clock.now();
  const booking = toPublicBooking(subject.booking, subject.tour, now);
  const links = guestLinks(deps.settings.publicBaseUrl, subject.booking.publicToken, kind);
  const composed = deps.compose({
    kind,
    request,
    booking,
    customerName: subject.customer.name,
    workspaceName: subject.workspace.name,
    replyTo: subject.workspace.replyToEmail,
    links,
    now,
  });
  const calendar = calendarAttachment(
    kind,
    { ...booking, version: subject.booking.version },
    { uidDomain: new URL(deps.settings.publicBaseUrl).hostname, now },
  );
  return {
    id: newId('guestEmail'),
    workspaceId: subject.booking.workspaceId,
    bookingId: subject.booking.id,
    kind,
    dedupeKey,
    recipient,
    status: deps.settings.keep ? 'KEPT' : 'PENDING',
    fromName: subject.workspace.name,
    replyTo: subject.workspace.replyToEmail,
    subject: composed.subject,
    text: composed.text,
    html: composed.html,
    headers: unsubscribeHeaders(links),
    attachments: calendar ? [calendar] : [],
  };
}

/**
 * Turns `notification.email_requested` events into messages, once each: the events are taken
 * (locked), their messages written (de-duplicated on the event id and recipient) and the
 * events marked done, in one transaction. Returns how many events were taken.
 */
export async function planRequestedEmails(deps: PlanGuestEmailsDeps, limit = 50): Promise<number> {
  const taken = await deps.uow.transaction(async ({ stores }) => {
    const events = await stores.guestEmails.takeRequests(limit);
    const emails: NewGuestEmail[] = [];
    for (const event of events) {
      const email = await emailOfRequest(deps, stores, event);
      if (email) emails.push(email);
    }
    if (emails.length > 0) await stores.guestEmails.insert(emails);
    await stores.guestEmails.markRequestsPlanned(events.map((event) => event.id));
    return ok(events.length);
  });
  return taken.ok ? taken.value : 0;
}

async function emailOfRequest(
  deps: PlanGuestEmailsDeps,
  stores: NotificationStores,
  event: OutboxEvent,
): Promise<NewGuestEmail | null> {
  // An event this version cannot read (written by a newer one, or damaged) is passed over.
  const parsed = v.safeParse(RequestedSchema, event.data);
  if (!parsed.success) return null;
  const { bookingId, customerId: _customerId, ...request } = parsed.output;
  const subject = await loadSubject(stores, event.workspaceId, bookingId);
  if (!subject) return null;
  return writeEmail(deps, subject, request.template, request as GuestEmailRequest, event.id);
}

/**
 * Writes the reminders that are due (the tour's `reminderHoursBefore` before the start). Several
 * workers may find the same booking: the dedupe key (booking and start) lets one message in.
 */
export async function planDepartureReminders(deps: PlanGuestEmailsDeps, limit = 200): Promise<number> {
  const now = deps.clock.now();
  const candidates = await deps.uow.stores.guestEmails.findReminderCandidates(now, limit);
  const emails: NewGuestEmail[] = [];
  for (const { workspaceId, bookingId } of candidates) {
    const subject = await loadSubject(deps.uow.stores, workspaceId, bookingId);
    if (!subject || !reminderDue(subject.booking, subject.tour?.reminderHoursBefore ?? null, now)) continue;
    const key = reminderKey(subject.booking.id, subject.booking.startsAt);
    const email = writeEmail(deps, subject, 'departure_reminder', null, key);
    if (email) emails.push(email);
  }
  return emails.length > 0 ? deps.uow.stores.guestEmails.insert(emails) : 0;
}

/** Warns unpaid public holds about to lapse, once per booking, with the link to pay. */
export async function planHoldWarnings(deps: PlanGuestEmailsDeps, limit = 200): Promise<number> {
  const now = deps.clock.now();
  const within = deps.settings.holdWarningMinutes;
  const candidates = await deps.uow.stores.guestEmails.findHoldWarningCandidates(now, within * 60_000, limit);
  const emails: NewGuestEmail[] = [];
  for (const { workspaceId, bookingId } of candidates) {
    const subject = await loadSubject(deps.uow.stores, workspaceId, bookingId);
    if (!subject || !holdWarningDue(subject.booking, within, now)) continue;
    const email = writeEmail(deps, subject, 'hold_expiring', null, holdWarningKey(subject.booking.id));
    if (email) emails.push(email);
  }
  return emails.length > 0 ? deps.uow.stores.guestEmails.insert(emails) : 0;
}
