import type { MemberStore } from '../access/index.js';
import type { BookingStore } from '../bookings/index.js';
import type { DepartureStore, ResourceStore, TourStore } from '../catalog/index.js';
import type { CustomerStore } from '../crm/index.js';
import type { OutboxStore } from '../events/index.js';
import type { Clock, DateRange, Page, PageRequest, UnitOfWork } from '../shared/ports.js';
import type { Result } from '../shared/result.js';
import type { Itinerary, ItineraryItem } from './itinerary-schemas.js';
import type {
  BlackoutDate,
  DepartureHistoryEntry,
  Guide,
  Incident,
  IncidentSeverity,
  IncidentStatus,
  TimeOff,
  Vehicle,
  VehicleStatus,
  Vendor,
} from './schemas.js';

export interface BlackoutDateStore {
  /** Fails with CONFLICT (field `date`) when the same scope (tour or workspace) already has the day. */
  insert(workspaceId: string, blackout: Omit<BlackoutDate, 'createdAt'>): Promise<Result<BlackoutDate>>;
  /** By date, then id. `tourId` keeps what applies to that tour: its own and workspace-wide days. */
  list(
    workspaceId: string,
    filter: DateRange & { tourId?: string },
    page: PageRequest,
  ): Promise<Page<BlackoutDate>>;
  /** Every blackout that applies to the tour within the range (for the bookable rule). */
  listApplying(workspaceId: string, tourId: string, range: DateRange): Promise<BlackoutDate[]>;
  /** Every blackout of the workspace on one of `days` (workspace-wide and every tour's). */
  listOnDays(workspaceId: string, days: readonly string[]): Promise<BlackoutDate[]>;
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewGuide = Omit<Guide, 'email' | 'createdAt' | 'updatedAt'>;
export type GuidePatch = Partial<Omit<NewGuide, 'memberId'>>;

export interface GuideStore {
  /** Fails with CONFLICT (field `memberId`) when the member already has a guide profile. */
  insert(workspaceId: string, guide: NewGuide): Promise<Result<Guide>>;
  findByMemberId(workspaceId: string, memberId: string): Promise<Guide | null>;
  update(workspaceId: string, memberId: string, patch: GuidePatch): Promise<Guide | null>;
  /** Newest first. */
  list(workspaceId: string, filter: { activeOnly: boolean }, page: PageRequest): Promise<Page<Guide>>;
}

export interface TimeOffStore {
  insert(workspaceId: string, timeOff: Omit<TimeOff, 'createdAt'>): Promise<TimeOff>;
  /** By startsAt, then id; a range keeps periods overlapping its days. */
  list(workspaceId: string, memberId: string, range: DateRange, page: PageRequest): Promise<Page<TimeOff>>;
  /** Periods of the member overlapping [start, end). */
  findOverlapping(workspaceId: string, memberId: string, start: Date, end: Date): Promise<TimeOff[]>;
  delete(workspaceId: string, memberId: string, id: string): Promise<boolean>;
}

export interface DepartureHistoryStore {
  append(workspaceId: string, entry: Omit<DepartureHistoryEntry, 'createdAt'>): Promise<void>;
  /** Oldest first. */
  list(workspaceId: string, availabilityId: string): Promise<DepartureHistoryEntry[]>;
}

export type NewVehicle = Omit<Vehicle, 'createdAt' | 'updatedAt'>;
export type VehiclePatch = Partial<Omit<NewVehicle, 'id'>>;

export interface VehicleStore {
  /** Fails with CONFLICT (field `registration`) when the registration is taken in the workspace. */
  insert(workspaceId: string, vehicle: NewVehicle): Promise<Result<Vehicle>>;
  findById(workspaceId: string, id: string): Promise<Vehicle | null>;
  /** Locks the vehicle row (FOR UPDATE): assignments of one vehicle serialise. */
  lock(workspaceId: string, id: string): Promise<Vehicle | null>;
  update(workspaceId: string, id: string, patch: VehiclePatch): Promise<Result<Vehicle | null>>;
  /** Newest first. */
  list(workspaceId: string, filter: { status?: VehicleStatus }, page: PageRequest): Promise<Page<Vehicle>>;
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewVendor = Omit<Vendor, 'createdAt' | 'updatedAt'>;
export type VendorPatch = Partial<Omit<NewVendor, 'id'>>;

export interface VendorStore {
  insert(workspaceId: string, vendor: NewVendor): Promise<Vendor>;
  findById(workspaceId: string, id: string): Promise<Vendor | null>;
  update(workspaceId: string, id: string, patch: VendorPatch): Promise<Vendor | null>;
  /** Newest first. */
  list(
    workspaceId: string,
    filter: { category?: Vendor['category'] },
    page: PageRequest,
  ): Promise<Page<Vendor>>;
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewIncident = Omit<Incident, 'createdAt' | 'updatedAt'>;
export type IncidentPatch = Partial<
  Pick<Incident, 'status' | 'severity' | 'title' | 'description' | 'resolvedAt'>
>;

export interface IncidentFilter extends DateRange {
  severity?: IncidentSeverity;
  status?: IncidentStatus;
}

export interface IncidentStore {
  insert(workspaceId: string, incident: NewIncident): Promise<Incident>;
  findById(workspaceId: string, id: string): Promise<Incident | null>;
  /** Locks the incident row (FOR UPDATE). */
  lock(workspaceId: string, id: string): Promise<Incident | null>;
  update(workspaceId: string, id: string, patch: IncidentPatch): Promise<Incident>;
  /** Most recent `occurredAt` first; `from`/`to` are UTC dates of `occurredAt`. */
  list(workspaceId: string, filter: IncidentFilter, page: PageRequest): Promise<Page<Incident>>;
}

/** An itinerary as stored: without its items, with its workspace. */
export interface ItineraryRecord extends Omit<Itinerary, 'items'> {
  workspaceId: string;
}
export type NewItinerary = Omit<ItineraryRecord, 'createdAt' | 'updatedAt'>;
export type ItineraryPatch = Partial<Pick<Itinerary, 'title' | 'startsOn' | 'endsOn' | 'notes'>>;
export type NewItineraryItem = Omit<ItineraryItem, 'createdAt' | 'updatedAt'>;
export type ItineraryItemPatch = Partial<Omit<NewItineraryItem, 'id' | 'itineraryId'>>;

export interface ItineraryStore {
  insert(itinerary: NewItinerary): Promise<ItineraryRecord>;
  findById(workspaceId: string, id: string): Promise<ItineraryRecord | null>;
  findByPublicToken(publicToken: string): Promise<ItineraryRecord | null>;
  update(workspaceId: string, id: string, patch: ItineraryPatch): Promise<ItineraryRecord | null>;
  /** By startsOn, then id; `from`/`to` keep trips overlapping those days. */
  list(
    workspaceId: string,
    filter: DateRange & { customerId?: string },
    page: PageRequest,
  ): Promise<Page<ItineraryRecord>>;
  insertItem(workspaceId: string, item: NewItineraryItem): Promise<ItineraryItem>;
  findItem(workspaceId: string, itineraryId: string, id: string): Promise<ItineraryItem | null>;
  updateItem(
    workspaceId: string,
    itineraryId: string,
    id: string,
    patch: ItineraryItemPatch,
  ): Promise<ItineraryItem | null>;
  deleteItem(workspaceId: string, itineraryId: string, id: string): Promise<boolean>;
  /** By startsAt, then creation, then id. */
  listItems(workspaceId: string, itineraryId: string): Promise<ItineraryItem[]>;
}

/** Every store the operations use cases touch; each use case names the ones it needs. */
export interface OperationsStores {
  blackoutDates: BlackoutDateStore;
  guides: GuideStore;
  timeOff: TimeOffStore;
  vehicles: VehicleStore;
  resources: ResourceStore;
  vendors: VendorStore;
  incidents: IncidentStore;
  itineraries: ItineraryStore;
  tours: TourStore;
  departures: DepartureStore;
  departureHistory: DepartureHistoryStore;
  bookings: BookingStore;
  customers: CustomerStore;
  members: MemberStore;
  outbox: OutboxStore;
}

/** What an operations use case takes: a unit of work over the stores `K` it names, and the clock. */
export interface OperationsDeps<K extends keyof OperationsStores = keyof OperationsStores> {
  uow: UnitOfWork<Pick<OperationsStores, K>>;
  clock: Clock;
}
