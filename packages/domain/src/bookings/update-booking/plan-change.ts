import type { Departure } from '../../catalog/index.js';
import { unprocessable } from '../../shared/errors.js';
import { fail, ok, type Result } from '../../shared/result.js';
import type { BookingChannelPolicy } from '../channel-policy.js';
import type { BookingRecord } from '../ports.js';
import type { UpdateBookingInput } from '../schemas.js';

/** What the change does to the booking's seats, decided on its locked departures. */
export interface ChangePlan {
  /** The departure the booking ends on, and the one it is on now (the same unless it moves). */
  target: Departure;
  current: Departure;
  moving: boolean;
  changingTour: boolean;
  /** Participants after the change. */
  count: number;
  /** It needs seats it does not hold yet: on another departure, or more on its own. */
  takesSeats: boolean;
  /** The target's tour is read: to price new participants, or for its time zone when taking seats. */
  needsTour: boolean;
}

/**
 * Where the booking goes and how many seats it needs. Another tour's departure only where the
 * channel lets bookings change tour, and only naming the participants (priced on that tour).
 */
export function planChange(
  booking: Pick<BookingRecord, 'availabilityId' | 'tourId' | 'participantCount'>,
  departures: ReadonlyMap<string, Departure>,
  input: Pick<UpdateBookingInput, 'availabilityId' | 'participants'>,
  policy: Pick<BookingChannelPolicy, 'changesTour'>,
): Result<ChangePlan> {
  const target = departures.get(input.availabilityId ?? booking.availabilityId);
  const current = departures.get(booking.availabilityId);
  if (!target || !current) return fail(unprocessable('No such departure.', 'availabilityId', 'not_found'));
  const changingTour = target.tourId !== booking.tourId;
  if (changingTour && !policy.changesTour) {
    return fail(
      unprocessable('Move the booking to a departure of the same tour.', 'availabilityId', 'different_tour'),
    );
  }
  if (changingTour && !input.participants) {
    return fail(unprocessable('Name the participants to move to another tour.', 'participants', 'required'));
  }
  const count = input.participants?.length ?? booking.participantCount;
  const moving = target.id !== current.id;
  const takesSeats = moving || count > booking.participantCount;
  const needsTour = input.participants !== undefined || takesSeats;
  return ok({ target, current, moving, changingTour, count, takesSeats, needsTour });
}
