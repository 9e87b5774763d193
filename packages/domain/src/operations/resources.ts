import type {
  CreateResourceInput,
  Resource,
  ResourceKind,
  ResourcePatch,
  UpdateResourceInput,
} from '../catalog/index.js';
import { type DomainError, notFound, unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { OperationsDeps } from './ports.js';
import { deleted, orNotFound } from './results.js';

// ---- Resources (docs/resources.md) -----------------------------------------------------------

/** A vehicle's resource is kept by /vehicles (migration 0020): changed or deleted there only. */
const isVehicleResource = (id: string) => id.startsWith('veh_');

const VEHICLE_RESOURCE: DomainError = unprocessable(
  'This resource is a vehicle: change or delete it through /vehicles.',
  'id',
  'vehicle_resource',
);

export async function createResource(
  deps: OperationsDeps<'resources'>,
  workspaceId: string,
  input: CreateResourceInput,
): Promise<Result<Resource>> {
  return ok(
    await deps.uow.stores.resources.insert(workspaceId, {
      id: newId('resource'),
      kind: input.kind,
      name: input.name,
      seats: input.seats ?? null,
      sharing: input.sharing ?? 'EXCLUSIVE',
      turnaroundMinutes: input.turnaroundMinutes ?? 0,
      active: input.active ?? true,
    }),
  );
}

export async function getResource(deps: OperationsDeps<'resources'>, workspaceId: string, id: string) {
  return orNotFound(await deps.uow.stores.resources.findById(workspaceId, id), 'resource');
}

export function listResources(
  deps: OperationsDeps<'resources'>,
  workspaceId: string,
  filter: { kind?: ResourceKind },
  page: PageRequest,
) {
  return deps.uow.stores.resources.list(workspaceId, filter, page);
}

/**
 * Changes a resource under its lock (the lock a booking's seat check takes, so no booking slips
 * between the check and the write). Fewer seats, a longer turnaround or sharing turned on must
 * leave no departure oversold: 422 `below_sold` naming them.
 */
export function updateResource(
  deps: OperationsDeps<'resources'>,
  workspaceId: string,
  id: string,
  input: UpdateResourceInput,
): Promise<Result<Resource>> {
  return deps.uow.transaction(async ({ stores }) => {
    if (isVehicleResource(id)) return fail(VEHICLE_RESOURCE);
    const current = await stores.resources.lock(workspaceId, id);
    if (!current) return fail(notFound('resource'));
    const next = { ...current, ...input } as Resource & ResourcePatch;
    if (next.sharing === 'SHARED_SEATS' && next.seats === null) {
      return fail(
        unprocessable('A resource that shares its seats needs seats.', 'seats', 'required_for_shared_seats'),
      );
    }
    if (next.sharing === 'SHARED_SEATS' && next.seats !== null) {
      const oversold = await stores.resources.findOversold(workspaceId, id, {
        seats: next.seats,
        turnaroundMinutes: next.turnaroundMinutes,
      });
      if (oversold.length > 0) {
        const worst = Math.max(...oversold.map((d) => d.seatsUsed));
        return fail({
          code: 'UNPROCESSABLE',
          message: `Departures on this resource already have ${worst} seats sold together; it cannot seat fewer.`,
          details: [{ field: 'seats', issue: 'below_sold', availabilityIds: oversold.map((d) => d.id) }],
        });
      }
    }
    return orNotFound(await stores.resources.update(workspaceId, id, input), 'resource');
  });
}

/** A resource still on a departure that has not finished cannot go (set it inactive instead). */
export function deleteResource(
  deps: OperationsDeps<'resources' | 'departures'>,
  workspaceId: string,
  id: string,
) {
  return deps.uow.transaction(async ({ stores }) => {
    if (isVehicleResource(id)) return fail(VEHICLE_RESOURCE);
    if (!(await stores.resources.lock(workspaceId, id))) return fail(notFound('resource'));
    const open = await stores.departures.listOpenAssignments(workspaceId, {
      resourceId: id,
      turnaroundMinutes: 0,
    });
    if (open.length > 0) {
      return fail({
        code: 'UNPROCESSABLE',
        message: 'The resource is on departures that have not finished; unassign it or set active: false.',
        details: [{ field: 'id', issue: 'resource_in_use', availabilityIds: open }],
      });
    }
    return deleted(id, await stores.resources.delete(workspaceId, id), 'resource');
  });
}
