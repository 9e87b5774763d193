import {
  CreateVehicleSchema,
  CreateVendorSchema,
  createVehicle,
  createVendor,
  deleteVehicle,
  deleteVendor,
  getVehicle,
  getVendor,
  ListVehiclesQuerySchema,
  ListVendorsQuerySchema,
  listVehicles,
  listVendors,
  UpdateVehicleSchema,
  UpdateVendorSchema,
  updateVehicle,
  updateVendor,
  VehicleSchema,
  VendorSchema,
} from '@travelops/domain/operations';
import { ok } from '@travelops/domain/shared';
import { DeletedSchema } from '@travelops/domain/webhooks';
import * as v from 'valibot';
import { defineRoute, toReply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

// The fleet and suppliers are run by operations staff, like departures.
const write = { permission: 'availability:write' } as const;
const read = { permission: 'read' } as const;
const VehicleParams = v.object({ workspaceId: PathId, vehicleId: PathId });
const VendorParams = v.object({ workspaceId: PathId, vendorId: PathId });

export const vehicleRoutes = [
  defineRoute({
    operationId: 'listVehicles',
    method: 'get',
    path: '/workspaces/{workspaceId}/vehicles',
    summary: 'List vehicles, newest first',
    tags: ['Vehicles'],
    access: read,
    params: WorkspaceParams,
    query: ListVehiclesQuerySchema,
    success: { status: 200, description: 'A page of vehicles.', schema: VehicleSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const filter = query.status ? { status: query.status } : {};
      return ok(pageReply(await listVehicles(use, params.workspaceId, filter, pageRequest())));
    },
  }),
  defineRoute({
    operationId: 'createVehicle',
    method: 'post',
    path: '/workspaces/{workspaceId}/vehicles',
    summary: 'Add a vehicle',
    description:
      'Added beyond the spec. `seats` are passenger seats. A registration is unique in the workspace, ignoring case (409 `already_exists`).',
    tags: ['Vehicles'],
    access: write,
    params: WorkspaceParams,
    body: CreateVehicleSchema,
    idempotent: true,
    success: { status: 201, description: 'The vehicle.', schema: VehicleSchema },
    errors: [409],
    async handle({ use, params, body }) {
      return toReply(await createVehicle(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'getVehicle',
    method: 'get',
    path: '/workspaces/{workspaceId}/vehicles/{vehicleId}',
    summary: 'Get a vehicle',
    tags: ['Vehicles'],
    access: read,
    params: VehicleParams,
    success: { status: 200, description: 'The vehicle.', schema: VehicleSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getVehicle(use, params.workspaceId, params.vehicleId));
    },
  }),
  defineRoute({
    operationId: 'updateVehicle',
    method: 'patch',
    path: '/workspaces/{workspaceId}/vehicles/{vehicleId}',
    summary: 'Change a vehicle',
    description:
      'Added beyond the spec. A vehicle in MAINTENANCE or RETIRED cannot be assigned to departures; existing assignments stay.',
    tags: ['Vehicles'],
    access: write,
    params: VehicleParams,
    body: UpdateVehicleSchema,
    success: { status: 200, description: 'The vehicle.', schema: VehicleSchema },
    errors: [404, 409],
    async handle({ use, params, body }) {
      return toReply(await updateVehicle(use, params.workspaceId, params.vehicleId, body));
    },
  }),
  defineRoute({
    operationId: 'deleteVehicle',
    method: 'delete',
    path: '/workspaces/{workspaceId}/vehicles/{vehicleId}',
    summary: 'Remove a vehicle',
    description:
      'Added beyond the spec. A vehicle still assigned to a departure that is not COMPLETED or CANCELLED is 422 `vehicle_in_use`: unassign it, or set status RETIRED.',
    tags: ['Vehicles'],
    access: write,
    params: VehicleParams,
    success: { status: 200, description: 'The deleted id.', schema: DeletedSchema },
    errors: [404, 422],
    async handle({ use, params }) {
      return toReply(await deleteVehicle(use, params.workspaceId, params.vehicleId));
    },
  }),
];

export const vendorRoutes = [
  defineRoute({
    operationId: 'listVendors',
    method: 'get',
    path: '/workspaces/{workspaceId}/vendors',
    summary: 'List vendors, newest first',
    tags: ['Vendors'],
    access: read,
    params: WorkspaceParams,
    query: ListVendorsQuerySchema,
    success: { status: 200, description: 'A page of vendors.', schema: VendorSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const filter = query.category ? { category: query.category } : {};
      return ok(pageReply(await listVendors(use, params.workspaceId, filter, pageRequest())));
    },
  }),
  defineRoute({
    operationId: 'createVendor',
    method: 'post',
    path: '/workspaces/{workspaceId}/vendors',
    summary: 'Add a vendor (supplier)',
    description: 'Added beyond the spec.',
    tags: ['Vendors'],
    access: write,
    params: WorkspaceParams,
    body: CreateVendorSchema,
    idempotent: true,
    success: { status: 201, description: 'The vendor.', schema: VendorSchema },
    errors: [],
    async handle({ use, params, body }) {
      return toReply(await createVendor(use, params.workspaceId, body));
    },
  }),
  defineRoute({
    operationId: 'getVendor',
    method: 'get',
    path: '/workspaces/{workspaceId}/vendors/{vendorId}',
    summary: 'Get a vendor',
    tags: ['Vendors'],
    access: read,
    params: VendorParams,
    success: { status: 200, description: 'The vendor.', schema: VendorSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await getVendor(use, params.workspaceId, params.vendorId));
    },
  }),
  defineRoute({
    operationId: 'updateVendor',
    method: 'patch',
    path: '/workspaces/{workspaceId}/vendors/{vendorId}',
    summary: 'Change a vendor',
    description: 'Added beyond the spec.',
    tags: ['Vendors'],
    access: write,
    params: VendorParams,
    body: UpdateVendorSchema,
    success: { status: 200, description: 'The vendor.', schema: VendorSchema },
    errors: [404],
    async handle({ use, params, body }) {
      return toReply(await updateVendor(use, params.workspaceId, params.vendorId, body));
    },
  }),
  defineRoute({
    operationId: 'deleteVendor',
    method: 'delete',
    path: '/workspaces/{workspaceId}/vendors/{vendorId}',
    summary: 'Remove a vendor',
    description: 'Added beyond the spec.',
    tags: ['Vendors'],
    access: write,
    params: VendorParams,
    success: { status: 200, description: 'The deleted id.', schema: DeletedSchema },
    errors: [404],
    async handle({ use, params }) {
      return toReply(await deleteVendor(use, params.workspaceId, params.vendorId));
    },
  }),
];
