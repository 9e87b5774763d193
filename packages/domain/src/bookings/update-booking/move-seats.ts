import { resourceFull } from '../../catalog/index.js';
import { fail, ok, type Result } from '../../shared/result.js';
import type { BookingRecord, BookingStores } from '../ports.js';
import { soldOut } from '../rules.js';
import type { ChangePlan } from './plan-change.js';

/** Seats the change adds to the target (negative: gives back): all of them on a new departure. */
export function seatDelta(
  booking: Pick<BookingRecord, 'participantCount'>,
  plan: Pick<ChangePlan, 'moving' | 'count'>,
): number {
  return plan.moving ? plan.count : plan.count - booking.participantCount;
}

/**
 * Moves the seats under the departures' locks: the old departure's back first when moving,
 * then the target's delta. The seat constraint is the backstop: a refused delta is 409.
 */
export async function moveSeats(
  stores: Pick<BookingStores, 'departures'>,
  workspaceId: string,
  booking: Pick<BookingRecord, 'participantCount'>,
  plan: Pick<ChangePlan, 'target' | 'current' | 'moving' | 'count'>,
): Promise<Result<true>> {
  if (plan.moving) {
    const released = await stores.departures.adjustBookedSeats(
      workspaceId,
      plan.current.id,
      -booking.participantCount,
    );
    if (!released.ok) return released;
  }
  const delta = seatDelta(booking, plan);
  if (delta !== 0) {
    const reserved = await stores.departures.adjustBookedSeats(workspaceId, plan.target.id, delta);
    if (!reserved.ok) return fail(soldOut(plan.target));
    // Seats added on a departure with resources: its shared ones are checked under their locks.
    if (delta > 0 && plan.target.resourceIds.length > 0) {
      const full = await stores.departures.findFullSharedResource(workspaceId, plan.target.id);
      if (full) return fail(resourceFull({ resourceId: full, seatsLeft: 0 }));
    }
  }
  return ok(true);
}
