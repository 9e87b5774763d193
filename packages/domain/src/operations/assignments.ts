import type { Departure, DeparturePatch, DepartureView, UpdateDepartureInput } from '../catalog/index.js';
import {
  checkDeparturePrices,
  decideDeparturePatch,
  departureNamer,
  localDateTime,
  lockAndCheckResources,
  viewDeparture,
} from '../catalog/index.js';
import { type ErrorDetail, forbidden, notFound, unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { OperationsDeps } from './ports.js';
import { unknownRef } from './results.js';
import {
  type AssignmentRole,
  type AssignmentWords,
  checkMemberFree,
  checkVehicleFits,
  departureInterval,
} from './rules.js';
import type { DepartureHistoryEntry } from './schemas.js';

// ---- Departure assignments ------------------------------------------------------------------

/** Who assigns: recorded on what they force; only an ADMIN may force. */
export interface AssignedBy {
  actor: DepartureHistoryEntry['actor'];
  admin: boolean;
}

const SYSTEM: AssignedBy = { actor: { type: 'system', id: null }, admin: false };

/** A departure's history: the rules ADMINs overrode on it, oldest first. */
export async function listDepartureHistory(
  deps: OperationsDeps<'departures' | 'departureHistory'>,
  workspaceId: string,
  id: string,
): Promise<Result<DepartureHistoryEntry[]>> {
  if (!(await deps.uow.stores.departures.findById(workspaceId, id))) return fail(notFound('availability'));
  return ok(await deps.uow.stores.departureHistory.list(workspaceId, id));
}

function toPatch(input: UpdateDepartureInput): DeparturePatch {
  return {
    ...(input.startsAt !== undefined && { startsAt: new Date(input.startsAt) }),
    ...(input.capacity !== undefined && { capacity: input.capacity }),
    ...(input.status !== undefined && { status: input.status }),
    ...(input.bookingCutoffAt !== undefined && {
      bookingCutoffAt: input.bookingCutoffAt === null ? null : new Date(input.bookingCutoffAt),
    }),
    ...(input.guideId !== undefined && { guideId: input.guideId }),
    ...(input.driverId !== undefined && { driverId: input.driverId }),
    ...(input.vehicleId !== undefined && { vehicleId: input.vehicleId }),
    ...(input.prices !== undefined && { prices: input.prices }),
    ...(input.resourceIds !== undefined && { resourceIds: input.resourceIds }),
  };
}

/**
 * PATCH of a departure, assignments included. Whoever the departure will have (guide,
 * driver, vehicle) is checked against its interval, startsAt .. startsAt + the tour's
 * duration, whenever the assignment, the time or the capacity changes. The member and
 * vehicle rows are locked first (members by id, then the vehicle, then the departure), so
 * two assignments of one guide to overlapping departures serialise: the second sees the first.
 */
export function updateDeparture(
  deps: OperationsDeps<
    | 'departures'
    | 'departureHistory'
    | 'blackoutDates'
    | 'guides'
    | 'members'
    | 'timeOff'
    | 'tours'
    | 'vehicles'
    | 'resources'
  >,
  workspaceId: string,
  id: string,
  input: UpdateDepartureInput,
  by: AssignedBy = SYSTEM,
): Promise<Result<DepartureView>> {
  const patch = toPatch(input);
  // Overriding a person's rule is a staffing decision: ADMIN only.
  if (input.force && !by.admin) {
    return Promise.resolve(fail(forbidden('Only an ADMIN may force an assignment.', 'force', 'admin_only')));
  }
  return deps.uow.transaction(async ({ stores }) => {
    const forced: ErrorDetail[] = [];
    const forcedMessages: string[] = [];
    const seen = await stores.departures.findById(workspaceId, id);
    if (!seen) return fail(notFound('availability'));
    const guideId = patch.guideId === undefined ? seen.guideId : patch.guideId;
    const driverId = patch.driverId === undefined ? seen.driverId : patch.driverId;
    const vehicleId = patch.vehicleId === undefined ? seen.vehicleId : patch.vehicleId;
    const recheck = patch.startsAt !== undefined || patch.capacity !== undefined;
    const members: [AssignmentRole, string][] = [];
    if (guideId && (patch.guideId !== undefined || recheck)) members.push(['guide', guideId]);
    if (driverId && (patch.driverId !== undefined || recheck)) members.push(['driver', driverId]);
    const checkVehicle = vehicleId && (patch.vehicleId !== undefined || recheck) ? vehicleId : null;

    for (const memberId of [...new Set(members.map(([, memberId]) => memberId))].sort()) {
      if (!(await stores.members.lock(workspaceId, memberId))) {
        const [role] = members.find(([, m]) => m === memberId) as [AssignmentRole, string];
        return fail(unknownRef('member', `${role}Id`));
      }
    }
    const vehicle = checkVehicle ? await stores.vehicles.lock(workspaceId, checkVehicle) : null;
    if (checkVehicle && !vehicle) return fail(unknownRef('vehicle', 'vehicleId'));

    const current = await stores.departures.lock(workspaceId, id);
    if (!current) return fail(notFound('availability'));
    const decided = decideDeparturePatch(current, patch);
    if (!decided.ok) return decided;
    const tour = await stores.tours.findById(workspaceId, current.tourId);
    if (!tour) return fail(notFound('tour'));
    if (patch.prices) {
      const prices = checkDeparturePrices(tour, patch.prices);
      if (!prices.ok) return prices;
    }
    const interval = departureInterval(patch.startsAt ?? current.startsAt, tour.durationMinutes);
    const capacity = patch.capacity ?? current.capacity;
    // Refusals name the other departure by its tour and local time, instants in this tour's zone.
    const wordsFor = async (busy: readonly Departure[]): Promise<AssignmentWords> => ({
      name: await departureNamer(stores.tours, workspaceId, busy.slice(0, 1)),
      at: (instant) => {
        const { date, time } = localDateTime(instant, tour.timeZone);
        return `${date} ${time} ${tour.timeZone}`;
      },
    });
    // A cancelled departure frees its people and vehicle: nothing to check.
    const active = (patch.status ?? current.status) !== 'CANCELLED';

    for (const [role, memberId] of active ? members : []) {
      if (role === 'guide') {
        const guide = await stores.guides.findByMemberId(workspaceId, memberId);
        if (!guide?.isGuide) {
          return fail(unprocessable('This member is not an active guide.', 'guideId', 'not_a_guide'));
        }
      }
      const timeOff = await stores.timeOff.findOverlapping(
        workspaceId,
        memberId,
        interval.start,
        interval.end,
      );
      const busy = await stores.departures.findOverlapping(
        workspaceId,
        { memberId },
        interval.start,
        interval.end,
        id,
      );
      const free = checkMemberFree(role, interval, timeOff, busy, await wordsFor(busy));
      if (!free.ok) {
        const detail = free.error.details?.[0];
        if (!input.force || !detail) return free;
        // Forced: the assignment stands, and what it overrode goes on the departure's history.
        forced.push(detail);
        forcedMessages.push(free.error.message);
      }
    }
    if (vehicle && active) {
      const busy = await stores.departures.findOverlapping(
        workspaceId,
        { vehicleId: vehicle.id },
        interval.start,
        interval.end,
        id,
      );
      const fits = checkVehicleFits(vehicle, capacity, busy, await wordsFor(busy));
      if (!fits.ok) return fits;
    }
    // Resources after the departure's lock, in id order: the order a booking takes them in.
    const resourceIds = (patch.resourceIds ?? current.resourceIds).filter((r) => r !== vehicleId);
    const resourcesMove = patch.resourceIds !== undefined || patch.startsAt !== undefined;
    if (active && resourcesMove) {
      const slot = { id, startsAt: interval.start, durationMinutes: tour.durationMinutes, capacity };
      const checked = await lockAndCheckResources(stores, workspaceId, resourceIds, slot);
      if (!checked.ok) return checked;
    }
    const updated = await stores.departures.updateWith(workspaceId, id, (locked) =>
      decideDeparturePatch(locked, patch),
    );
    if (!updated.ok) return updated;
    // Seats sold here must fit the shared resources where the departure now is.
    if (active && resourcesMove && updated.value.resourceIds.length > 0) {
      const full = await stores.departures.findFullSharedResource(workspaceId, id);
      if (full) {
        return fail({
          code: 'UNPROCESSABLE',
          message: `The resource ${full} has too few seats left for the seats sold on this departure.`,
          details: [{ field: 'resourceIds', issue: 'resource_full', resourceId: full }],
        });
      }
    }
    // The write's own answer counts shared seats as they were before it: read them as they are now.
    const now = resourcesMove ? await stores.departures.findById(workspaceId, id) : null;
    for (const [i, detail] of forced.entries()) {
      await stores.departureHistory.append(workspaceId, {
        id: newId('departureHistory'),
        availabilityId: id,
        kind: 'ASSIGNMENT_FORCED',
        field: detail.field,
        issue: detail.issue,
        message: forcedMessages[i] ?? '',
        actor: by.actor,
      });
    }
    return ok(await viewDeparture(stores, workspaceId, now ?? updated.value, deps.clock.now(), tour));
  });
}
