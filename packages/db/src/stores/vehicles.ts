import type {
  NewVehicle,
  NewVendor,
  Vehicle,
  VehiclePatch,
  VehicleStatus,
  VehicleStore,
  Vendor,
  VendorPatch,
  VendorStore,
} from '@travelops/domain/operations';
import { conflict, fail, ok, type Page, type PageRequest, type Result } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { constraintError } from '../errors.js';
import { type DbTimestamp, guarded, pageNewestFirst, toColumns, toIso } from './columns.js';

interface VehicleRow {
  id: string;
  workspace_id: string;
  name: string;
  registration: string | null;
  seats: number;
  status: VehicleStatus;
  notes: string | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const VEHICLE_COLUMNS = {
  name: 'name',
  registration: 'registration',
  seats: 'seats',
  status: 'status',
  notes: 'notes',
} as const satisfies { readonly [K in keyof Required<VehiclePatch>]: string };

const REGISTRATION_TAKEN = {
  vehicles_workspace_registration_key: conflict(
    'A vehicle with this registration already exists.',
    'registration',
    'already_exists',
  ),
};

const toVehicle = (row: VehicleRow): Vehicle => ({
  id: row.id,
  name: row.name,
  registration: row.registration,
  seats: row.seats,
  status: row.status,
  notes: row.notes,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

async function registrationGuarded<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await work());
  } catch (error) {
    const known = constraintError(error, REGISTRATION_TAKEN);
    if (known) return fail(known);
    throw error;
  }
}

export function createVehicleStore(db: Knex | Knex.Transaction): VehicleStore {
  const vehicles = (q: Knex = db) => q<VehicleRow>('vehicles');

  return {
    insert(workspaceId: string, vehicle: NewVehicle): Promise<Result<Vehicle>> {
      return registrationGuarded(async () => {
        const [row] = await guarded(db, (q) =>
          vehicles(q)
            .insert({
              id: vehicle.id,
              workspace_id: workspaceId,
              ...toColumns<VehiclePatch>(vehicle, VEHICLE_COLUMNS),
            })
            .returning('*'),
        );
        return toVehicle(row as VehicleRow);
      });
    },

    async findById(workspaceId: string, id: string): Promise<Vehicle | null> {
      const row = await vehicles().where({ workspace_id: workspaceId, id }).first();
      return row ? toVehicle(row) : null;
    },

    async lock(workspaceId: string, id: string): Promise<Vehicle | null> {
      const row = await vehicles().where({ workspace_id: workspaceId, id }).forUpdate().first();
      return row ? toVehicle(row) : null;
    },

    update(workspaceId: string, id: string, patch: VehiclePatch): Promise<Result<Vehicle | null>> {
      return registrationGuarded(async () => {
        const changes = toColumns(patch, VEHICLE_COLUMNS);
        const [row] = await guarded(db, (q) =>
          vehicles(q)
            .where({ workspace_id: workspaceId, id })
            .update({ ...changes, updated_at: q.fn.now() })
            .returning('*'),
        );
        return row ? toVehicle(row as VehicleRow) : null;
      });
    },

    list(workspaceId: string, filter: { status?: VehicleStatus }, page: PageRequest): Promise<Page<Vehicle>> {
      const query = vehicles().where({ workspace_id: workspaceId });
      if (filter.status) query.where({ status: filter.status });
      return pageNewestFirst(query, page, toVehicle);
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      const gone = await vehicles().where({ workspace_id: workspaceId, id }).del().returning('id');
      return gone.length > 0;
    },
  };
}

interface VendorRow {
  id: string;
  workspace_id: string;
  name: string;
  category: Vendor['category'];
  contact_name: string | null;
  email: string | null;
  phone: string | null;
  notes: string | null;
  created_at: DbTimestamp;
  updated_at: DbTimestamp;
}

const VENDOR_COLUMNS = {
  name: 'name',
  category: 'category',
  contactName: 'contact_name',
  email: 'email',
  phone: 'phone',
  notes: 'notes',
} as const satisfies { readonly [K in keyof Required<VendorPatch>]: string };

const toVendor = (row: VendorRow): Vendor => ({
  id: row.id,
  name: row.name,
  category: row.category,
  contactName: row.contact_name,
  email: row.email,
  phone: row.phone,
  notes: row.notes,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export function createVendorStore(db: Knex | Knex.Transaction): VendorStore {
  const vendors = () => db<VendorRow>('vendors');

  return {
    async insert(workspaceId: string, vendor: NewVendor): Promise<Vendor> {
      const [row] = await vendors()
        .insert({
          id: vendor.id,
          workspace_id: workspaceId,
          ...toColumns<VendorPatch>(vendor, VENDOR_COLUMNS),
        })
        .returning('*');
      return toVendor(row as VendorRow);
    },

    async findById(workspaceId: string, id: string): Promise<Vendor | null> {
      const row = await vendors().where({ workspace_id: workspaceId, id }).first();
      return row ? toVendor(row) : null;
    },

    async update(workspaceId: string, id: string, patch: VendorPatch): Promise<Vendor | null> {
      const [row] = await vendors()
        .where({ workspace_id: workspaceId, id })
        .update({ ...toColumns(patch, VENDOR_COLUMNS), updated_at: db.fn.now() })
        .returning('*');
      return row ? toVendor(row as VendorRow) : null;
    },

    list(
      workspaceId: string,
      filter: { category?: Vendor['category'] },
      page: PageRequest,
    ): Promise<Page<Vendor>> {
      const query = vendors().where({ workspace_id: workspaceId });
      if (filter.category) query.where({ category: filter.category });
      return pageNewestFirst(query, page, toVendor);
    },

    async delete(workspaceId: string, id: string): Promise<boolean> {
      const gone = await vendors().where({ workspace_id: workspaceId, id }).del().returning('id');
      return gone.length > 0;
    },
  };
}
