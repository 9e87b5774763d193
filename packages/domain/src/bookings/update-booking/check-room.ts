import type { Departure, Tour } from '../../catalog/index.js';
import { ok, type Result } from '../../shared/result.js';
import { blackoutsOfDay } from '../booking-writes.js';
import type { BookingRecord, BookingStores } from '../ports.js';
import { checkSeats } from '../rules.js';
import type { ChangePlan } from './plan-change.js';

/**
 * The target as the seat rule sees it for this booking: seats it already holds there count as
 * free. On a departure with resources, its own seats only: its shared resources are checked
 * under their locks when the seats move (`moveSeats`), and a refusal names the resource.
 */
export function roomFor(
  booking: Pick<BookingRecord, 'participantCount'>,
  plan: Pick<ChangePlan, 'target' | 'moving'>,
): Departure {
  const own = plan.moving ? 0 : booking.participantCount;
  const { target } = plan;
  const left = target.resourceIds.length > 0 ? target.capacity - target.bookedSeats : target.seatsRemaining;
  return { ...target, seatsRemaining: left + own };
}

/** A change that takes seats checks the target's room, its bookability and blackouts (tour's time zone). */
export async function checkRoom(
  stores: Pick<BookingStores, 'blackoutDates'>,
  workspaceId: string,
  booking: Pick<BookingRecord, 'participantCount'>,
  plan: Pick<ChangePlan, 'target' | 'moving' | 'count' | 'takesSeats'>,
  tour: Pick<Tour, 'timeZone'> | null,
  now: Date,
): Promise<Result<true>> {
  if (!plan.takesSeats) return ok(true);
  const blackouts = await blackoutsOfDay(stores, workspaceId, plan.target);
  return checkSeats(roomFor(booking, plan), plan.count, now, blackouts, tour?.timeZone);
}
