import type { Departure } from '../catalog/index.js';
import { addDays } from '../catalog/index.js';
import { appendEvent, type OutboxEventType } from '../events/index.js';
import { newId, randomBase62 } from '../shared/ids.js';
import type { Clock } from '../shared/ports.js';
import { ok, type Result } from '../shared/result.js';
import type { Actor, BookingRecord, BookingStores, NewHistoryEntry } from './ports.js';
import type { PricedSeat } from './pricing.js';
import type { Participant, ParticipantInput } from './schemas.js';
import { toBookingView } from './view.js';

/** The worker and the hold rules act as `system` in a booking's history. */
export const SYSTEM: Actor = { type: 'system', id: null };

export const newPublicToken = () => randomBase62(32);

/** The booking's participants, each with the seat `priceSeats` sold it (same order). */
export function toParticipants(
  inputs: readonly ParticipantInput[],
  seats: readonly PricedSeat[],
): Participant[] {
  return inputs.map((input, index) => ({
    id: newId('participant'),
    name: input.name,
    ageBand: input.ageBand ?? null,
    dietaryNotes: input.dietaryNotes ?? null,
    accessibilityNotes: input.accessibilityNotes ?? null,
    emergencyContact: input.emergencyContact ?? null,
    waiverSigned: false,
    checkedInAt: null,
    ticketTypeId: seats[index]?.ticketTypeId ?? null,
    price: seats[index]?.price ?? 0,
  }));
}

/** Appends an event about the booking (its API view unless `data` is given), ordered per booking. */
export function emitBookingEvent(
  stores: Pick<BookingStores, 'outbox'>,
  clock: Clock,
  type: OutboxEventType,
  booking: BookingRecord,
  data?: unknown,
): Promise<void> {
  return appendEvent(
    { outbox: stores.outbox, clock },
    {
      type,
      workspaceId: booking.workspaceId,
      aggregateId: booking.id,
      data: data ?? toBookingView(booking, clock.now()),
    },
  );
}

/** The history entry of the booking's move from `from` to its status. */
export function statusEntry(
  booking: Pick<BookingRecord, 'id' | 'workspaceId' | 'status'>,
  from: BookingRecord['status'] | null,
  actor: Actor,
  reason: string | null,
): NewHistoryEntry {
  return {
    id: newId('history'),
    workspaceId: booking.workspaceId,
    bookingId: booking.id,
    fromStatus: from,
    toStatus: booking.status,
    reason,
    actor,
  };
}

export function recordStatus(
  stores: Pick<BookingStores, 'bookingHistory'>,
  booking: BookingRecord,
  from: BookingRecord['status'] | null,
  actor: Actor,
  reason: string | null,
): Promise<void> {
  return stores.bookingHistory.append(statusEntry(booking, from, actor, reason));
}

export type CancelStores = Pick<
  BookingStores,
  'departures' | 'bookings' | 'payments' | 'bookingHistory' | 'customers' | 'outbox'
>;

/** Cancels a locked booking whose departure is locked: seats back, history, event. */
export async function cancelLocked(
  stores: CancelStores,
  clock: Clock,
  booking: BookingRecord,
  options: { actor: Actor; reason: string | null; event: 'booking.cancelled' | 'booking.expired' },
): Promise<Result<BookingRecord>> {
  const released = await stores.departures.adjustBookedSeats(
    booking.workspaceId,
    booking.availabilityId,
    -booking.participantCount,
  );
  if (!released.ok) return released;
  const cancelled = await stores.bookings.update(booking.workspaceId, booking.id, {
    status: 'CANCELLED',
    cancelledAt: clock.now().toISOString(),
    cancellationReason: options.reason,
    expiresAt: null,
  });
  await stores.payments.expireOpenSessions(booking.id);
  await recordStatus(stores, cancelled, booking.status, options.actor, options.reason);
  await stores.customers.refreshStats(booking.workspaceId, booking.customerId);
  await emitBookingEvent(stores, clock, options.event, cancelled);
  return ok(cancelled);
}

/** Releases the departure's expired holds (the caller holds the departure lock); returns how many. */
export async function releaseExpiredHolds(
  stores: CancelStores,
  clock: Clock,
  workspaceId: string,
  availabilityId: string,
): Promise<number> {
  const holds = await stores.bookings.findExpiredHolds(clock.now(), {
    workspaceId,
    availabilityId,
    limit: 1000,
  });
  let released = 0;
  for (const hold of holds) {
    const locked = await stores.bookings.lock(workspaceId, hold.id);
    if (locked?.status !== 'PENDING') continue;
    const cancelled = await cancelLocked(stores, clock, locked, {
      actor: SYSTEM,
      reason: 'EXPIRED',
      event: 'booking.expired',
    });
    // A refused release writes nothing (it is cancelLocked's first write): skipping it is safe.
    if (cancelled.ok) released++;
  }
  return released;
}

/**
 * The blackouts that may close the departure's day: its local day in the tour's time zone
 * lies within a day of its UTC date, so those three days cover every zone (the rule picks).
 */
export function blackoutsOfDay(
  stores: Pick<BookingStores, 'blackoutDates'>,
  workspaceId: string,
  departure: Departure,
) {
  const day = departure.startsAt.slice(0, 10);
  return stores.blackoutDates.listApplying(workspaceId, departure.tourId, {
    from: addDays(day, -1),
    to: addDays(day, 1),
  });
}
