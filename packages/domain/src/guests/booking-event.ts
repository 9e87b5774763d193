import type { CalendarEvent } from './calendar-file.js';
import type { PublicBooking } from './guest-view.js';

const MINUTE_MS = 60_000;

const EVENT_STATUS: Record<PublicBooking['status'], CalendarEvent['status']> = {
  PENDING: 'TENTATIVE',
  CONFIRMED: 'CONFIRMED',
  COMPLETED: 'CONFIRMED',
  NO_SHOW: 'CONFIRMED',
  CANCELLED: 'CANCELLED',
};

/**
 * The booking as one calendar event, for `toIcs`: the guest page's `.ics` and the confirmation
 * e-mail's attachment are the same file. It holds no link with the guest's token: calendars are
 * often shared, and the token is the booking's key.
 */
export function guestBookingEvent(
  booking: PublicBooking,
  options: { uidDomain: string; now: Date; sequence?: number },
): CalendarEvent {
  const start = new Date(booking.startsAt);
  const minutes = booking.tour?.durationMinutes ?? 60;
  const names = booking.participants.map((p) => p.name).join(', ');
  return {
    uid: `${booking.id}@${options.uidDomain}`,
    stamp: options.now,
    start,
    end: new Date(start.getTime() + minutes * MINUTE_MS),
    summary: booking.tour?.name ?? 'Tour',
    location: booking.tour?.meetingPoint ?? null,
    description: [
      `Booking ${booking.id}`,
      ...(names ? [`Participants: ${names}`] : []),
      ...(booking.tour?.meetingPoint ? [`Meeting point: ${booking.tour.meetingPoint}`] : []),
    ].join('\n'),
    status: EVENT_STATUS[booking.status],
    ...(options.sequence !== undefined && { sequence: options.sequence }),
  };
}
