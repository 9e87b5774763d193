import { unprocessable } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import { departureNamer } from './departure-names.js';
import type { CatalogStores } from './ports.js';
import { checkResourceFree } from './resource-rules.js';
import type { Resource, ResourceRequirement } from './resource-schemas.js';
import type { Tour } from './tour-schemas.js';

type ResourceStores = Pick<CatalogStores, 'resources' | 'departures' | 'tours'>;

/** Where a departure would run: its start, its tour's minutes and its capacity. */
export interface DepartureSlot {
  /** The departure itself, when it exists: left out of the overlaps. */
  id?: string;
  startsAt: Date;
  durationMinutes: number;
  capacity: number;
}

/** A tour's requirements may only name this workspace's resources (422 `not_found`). */
export async function checkRequirements(
  stores: Pick<CatalogStores, 'resources'>,
  workspaceId: string,
  requirements: readonly ResourceRequirement[],
): Promise<Result<true>> {
  const named = requirements.flatMap((r, i) => ('resourceId' in r ? [[i, r.resourceId] as const] : []));
  if (named.length === 0) return ok(true);
  const found = new Set(
    (await stores.resources.findByIds(workspaceId, [...new Set(named.map(([, id]) => id))])).map((r) => r.id),
  );
  const missing = named.find(([, id]) => !found.has(id));
  if (missing) {
    return fail(
      unprocessable(
        'No such resource in this workspace.',
        `resourceRequirements[${missing[0]}].resourceId`,
        'not_found',
      ),
    );
  }
  return ok(true);
}

/**
 * After a schedule made its departures on the resources the tour names: none EXCLUSIVE may now
 * be on two overlapping departures (422 `resource_double_booked`, which rolls the schedule back).
 */
export async function checkScheduledResources(
  stores: ResourceStores,
  workspaceId: string,
  tour: Pick<Tour, 'resourceRequirements'>,
): Promise<Result<true>> {
  const named = tour.resourceRequirements.flatMap((r) => ('resourceId' in r ? [r.resourceId] : []));
  for (const id of [...new Set(named)].sort()) {
    const resource = await stores.resources.lock(workspaceId, id);
    if (resource?.sharing !== 'EXCLUSIVE') continue;
    const twice = await stores.resources.findDoubleBooked(workspaceId, id, resource.turnaroundMinutes);
    if (twice) {
      const name = await departureNamer(stores.tours, workspaceId, [twice]);
      return fail(
        unprocessable(
          `The resource ${resource.name} would be on ${name(twice)} and another departure at once.`,
          'resourceRequirements',
          'resource_double_booked',
        ),
      );
    }
  }
  return ok(true);
}

/** How many candidates of one kind are tried when others take them meanwhile. */
const FREE_ATTEMPTS = 5;

/**
 * Locks each resource (in id order, after the departure if it exists, as bookings do) and
 * checks it may take the departure: known in this workspace (422 `not_found`), active, and an
 * EXCLUSIVE one on no overlapping departure (422 `resource_double_booked`).
 */
export async function lockAndCheckResources(
  stores: ResourceStores,
  workspaceId: string,
  ids: readonly string[],
  slot: DepartureSlot,
  field = 'resourceIds',
): Promise<Result<Resource[]>> {
  const locked: Resource[] = [];
  for (const id of [...ids].sort()) {
    const resource = await stores.resources.lock(workspaceId, id);
    if (!resource) return fail(unprocessable('No such resource in this workspace.', field, 'not_found'));
    const busy = await busyOn(stores, workspaceId, resource, slot);
    const name = await departureNamer(stores.tours, workspaceId, busy.slice(0, 1));
    const free = checkResourceFree(resource, busy, field, name);
    if (!free.ok) return free;
    locked.push(resource);
  }
  return ok(locked);
}

function busyOn(stores: ResourceStores, workspaceId: string, resource: Resource, slot: DepartureSlot) {
  const start = slot.startsAt;
  const end = new Date(start.getTime() + slot.durationMinutes * 60_000);
  return stores.departures.findOverlapping(
    workspaceId,
    { resourceId: resource.id, turnaroundMinutes: resource.turnaroundMinutes },
    start,
    end,
    slot.id ?? '',
  );
}

/**
 * The resources a new departure runs on: those `given` by hand, else the tour's requirements,
 * each the named resource or the first free active one of its kind seating the departure's
 * capacity (422 `no_free_resource` when none is). Every one is locked and checked.
 */
export async function chooseResources(
  stores: ResourceStores,
  workspaceId: string,
  tour: Pick<Tour, 'resourceRequirements'>,
  slot: DepartureSlot,
  given?: readonly string[],
): Promise<Result<string[]>> {
  if (given) {
    const checked = await lockAndCheckResources(stores, workspaceId, given, slot);
    return checked.ok ? ok(checked.value.map((r) => r.id)) : checked;
  }
  const chosen: string[] = [];
  for (const [i, requirement] of tour.resourceRequirements.entries()) {
    if ('resourceId' in requirement) {
      const field = `resourceRequirements[${i}].resourceId`;
      const checked = await lockAndCheckResources(stores, workspaceId, [requirement.resourceId], slot, field);
      if (!checked.ok) return checked;
      chosen.push(requirement.resourceId);
      continue;
    }
    const picked = await pickFree(stores, workspaceId, requirement.kind, slot, chosen);
    if (!picked.ok) return picked;
    chosen.push(picked.value);
  }
  return ok([...new Set(chosen)]);
}

/** The first free resource of a kind, locked; one taken meanwhile is passed over for the next. */
async function pickFree(
  stores: ResourceStores,
  workspaceId: string,
  kind: Resource['kind'],
  slot: DepartureSlot,
  taken: readonly string[],
): Promise<Result<string>> {
  const skip = new Set(taken);
  for (let attempt = 0; attempt < FREE_ATTEMPTS; attempt++) {
    const candidate = await stores.resources.findFree(workspaceId, {
      kind,
      seats: slot.capacity,
      start: slot.startsAt,
      minutes: slot.durationMinutes,
      excludeIds: [...skip],
      ...(slot.id !== undefined && { excludeId: slot.id }),
    });
    if (!candidate) break;
    const locked = await stores.resources.lock(workspaceId, candidate.id);
    if (locked && (await busyOn(stores, workspaceId, locked, slot)).length === 0) return ok(locked.id);
    skip.add(candidate.id);
  }
  return fail(
    unprocessable(
      `No free ${kind} resource seats ${slot.capacity} at that time.`,
      'resourceRequirements',
      'no_free_resource',
    ),
  );
}

/**
 * The departures a schedule just made get, for each of the tour's requirements by kind, the
 * first free resource of that kind seating them, in time order, as departures made one by one
 * do: each choice is written before the next is made, so two overlapping departures of the
 * schedule never get one EXCLUSIVE boat. None free: 422 `no_free_resource`, which rolls the
 * schedule back. The resources the tour names by id are already on them.
 */
export async function assignScheduledKinds(
  stores: ResourceStores,
  workspaceId: string,
  tour: Pick<Tour, 'resourceRequirements' | 'durationMinutes'>,
  made: readonly { id: string; startsAt: string; capacity: number }[],
): Promise<Result<true>> {
  const kinds = tour.resourceRequirements.flatMap((r) => ('kind' in r ? [r.kind] : []));
  if (kinds.length === 0) return ok(true);
  const named = tour.resourceRequirements.flatMap((r) => ('resourceId' in r ? [r.resourceId] : []));
  const ordered = [...made].sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.id.localeCompare(b.id));
  for (const departure of ordered) {
    const slot: DepartureSlot = {
      id: departure.id,
      startsAt: new Date(departure.startsAt),
      durationMinutes: tour.durationMinutes,
      capacity: departure.capacity,
    };
    const picked: string[] = [];
    for (const kind of kinds) {
      const free = await pickFree(stores, workspaceId, kind, slot, [...named, ...picked]);
      if (!free.ok) return free;
      picked.push(free.value);
    }
    const saved = await stores.departures.updateWith(workspaceId, departure.id, (current) =>
      ok({ resourceIds: [...new Set([...current.resourceIds, ...picked])] }),
    );
    if (!saved.ok) return saved;
  }
  return ok(true);
}
