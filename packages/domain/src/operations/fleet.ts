import { notFound, unprocessable } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { PageRequest } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { OperationsDeps } from './ports.js';
import { deleted, orNotFound } from './results.js';
import type {
  CreateVehicleInput,
  CreateVendorInput,
  UpdateVehicleInput,
  UpdateVendorInput,
  Vehicle,
  Vendor,
} from './schemas.js';

// ---- Vehicles and vendors -------------------------------------------------------------------

export function createVehicle(
  deps: OperationsDeps<'vehicles'>,
  workspaceId: string,
  input: CreateVehicleInput,
) {
  return deps.uow.stores.vehicles.insert(workspaceId, {
    id: newId('vehicle'),
    name: input.name,
    registration: input.registration ?? null,
    seats: input.seats,
    status: input.status ?? 'ACTIVE',
    notes: input.notes ?? null,
  });
}

export async function getVehicle(deps: OperationsDeps<'vehicles'>, workspaceId: string, id: string) {
  return orNotFound(await deps.uow.stores.vehicles.findById(workspaceId, id), 'vehicle');
}

export async function updateVehicle(
  deps: OperationsDeps<'vehicles'>,
  workspaceId: string,
  id: string,
  input: UpdateVehicleInput,
): Promise<Result<Vehicle>> {
  const updated = await deps.uow.stores.vehicles.update(workspaceId, id, input);
  return updated.ok ? orNotFound(updated.value, 'vehicle') : updated;
}

export function listVehicles(
  deps: OperationsDeps<'vehicles'>,
  workspaceId: string,
  filter: { status?: Vehicle['status'] },
  page: PageRequest,
) {
  return deps.uow.stores.vehicles.list(workspaceId, filter, page);
}

/** A vehicle still assigned to an open departure cannot go (retire it, or unassign it first). */
export function deleteVehicle(
  deps: OperationsDeps<'departures' | 'vehicles'>,
  workspaceId: string,
  id: string,
) {
  return deps.uow.transaction(async ({ stores }) => {
    if (!(await stores.vehicles.lock(workspaceId, id))) return fail(notFound('vehicle'));
    if (await stores.departures.hasOpenAssignments(workspaceId, { vehicleId: id })) {
      return fail(
        unprocessable(
          'The vehicle is assigned to departures that have not finished; unassign it or set status RETIRED.',
          'id',
          'vehicle_in_use',
        ),
      );
    }
    return deleted(id, await stores.vehicles.delete(workspaceId, id), 'vehicle');
  });
}

export async function createVendor(
  deps: OperationsDeps<'vendors'>,
  workspaceId: string,
  input: CreateVendorInput,
): Promise<Result<Vendor>> {
  return ok(
    await deps.uow.stores.vendors.insert(workspaceId, {
      id: newId('vendor'),
      name: input.name,
      category: input.category,
      contactName: input.contactName ?? null,
      email: input.email ?? null,
      phone: input.phone ?? null,
      notes: input.notes ?? null,
    }),
  );
}

export async function getVendor(deps: OperationsDeps<'vendors'>, workspaceId: string, id: string) {
  return orNotFound(await deps.uow.stores.vendors.findById(workspaceId, id), 'vendor');
}

export async function updateVendor(
  deps: OperationsDeps<'vendors'>,
  workspaceId: string,
  id: string,
  input: UpdateVendorInput,
) {
  return orNotFound(await deps.uow.stores.vendors.update(workspaceId, id, input), 'vendor');
}

export function listVendors(
  deps: OperationsDeps<'vendors'>,
  workspaceId: string,
  filter: { category?: Vendor['category'] },
  page: PageRequest,
) {
  return deps.uow.stores.vendors.list(workspaceId, filter, page);
}

export async function deleteVendor(deps: OperationsDeps<'vendors'>, workspaceId: string, id: string) {
  return deleted(id, await deps.uow.stores.vendors.delete(workspaceId, id), 'vendor');
}
