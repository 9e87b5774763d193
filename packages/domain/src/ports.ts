import type { Result } from './result.js';
import type {
  Availability,
  CreateAvailabilityInput,
  UpdateAvailabilityInput,
} from './schemas/availability.js';
import type { Customer } from './schemas/customer.js';
import type { Tour } from './schemas/tour.js';
import type { ApiTokenRecord, MemberRecord, Workspace } from './schemas/workspace.js';

export interface Clock {
  now(): Date;
}

/** Position in a keyset-ordered list: the sort value and id of the last item seen. */
export interface Keyset {
  value: string | number;
  id: string;
}

export interface PageRequest {
  limit: number;
  after: Keyset | null;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Where the next page starts; null on the last page. */
  next: Keyset | null;
}

export type NewTour = Omit<Tour, 'createdAt' | 'updatedAt'>;
export type TourPatch = Partial<Omit<Tour, 'id' | 'createdAt' | 'updatedAt'>>;

export interface TourStore {
  /** Fails with CONFLICT (field `slug`) when the slug is taken in the workspace. */
  insert(workspaceId: string, tour: NewTour): Promise<Result<Tour>>;
  findById(workspaceId: string, id: string): Promise<Tour | null>;
  findBySlug(workspaceId: string, slug: string): Promise<Tour | null>;
  update(workspaceId: string, id: string, patch: TourPatch): Promise<Result<Tour>>;
  list(workspaceId: string, page: PageRequest): Promise<Page<Tour>>;
  listPublic(workspaceId: string): Promise<Tour[]>;
}

export interface NewAvailability {
  id: string;
  tourId: string;
  startsAt: Date;
  capacity: number;
  status: CreateAvailabilityInput['status'] & string;
  bookingCutoffAt: Date | null;
}

export interface AvailabilityPatch {
  startsAt?: Date;
  capacity?: number;
  status?: NonNullable<UpdateAvailabilityInput['status']>;
  bookingCutoffAt?: Date | null;
}

export interface AvailabilityFilter {
  from?: string;
  to?: string;
  tourId?: string;
}

export interface AvailabilityStore {
  insert(workspaceId: string, departure: NewAvailability): Promise<Availability>;
  findById(workspaceId: string, id: string): Promise<Availability | null>;
  /**
   * Locks the departure, lets `decide` turn its current state into a patch, and writes
   * the patch in the same transaction: seat-affecting writes are serialised per departure.
   */
  updateWith(
    workspaceId: string,
    id: string,
    decide: (current: Availability) => Result<AvailabilityPatch>,
  ): Promise<Result<Availability>>;
  list(workspaceId: string, filter: AvailabilityFilter, page: PageRequest): Promise<Page<Availability>>;
  /** Departures of one tour a guest may book now (see `isBookable`), by start time. */
  listBookable(
    workspaceId: string,
    tourId: string,
    filter: Omit<AvailabilityFilter, 'tourId'>,
    now: Date,
  ): Promise<Availability[]>;
}

export type NewCustomer = Pick<Customer, 'id' | 'name' | 'email' | 'phone' | 'tags' | 'marketingConsent'>;

export interface CustomerStore {
  /** Fails with CONFLICT (field `email`) when the e-mail is taken in the workspace. */
  insert(workspaceId: string, customer: NewCustomer): Promise<Result<Customer>>;
  findById(workspaceId: string, id: string): Promise<Customer | null>;
  list(workspaceId: string, filter: { q?: string }, page: PageRequest): Promise<Page<Customer>>;
}

export interface WorkspaceStore {
  /** Fails with CONFLICT (field `slug`) when the slug is taken. */
  insert(workspace: Omit<Workspace, 'createdAt'>): Promise<Result<Workspace>>;
  findById(id: string): Promise<Workspace | null>;
  findBySlug(slug: string): Promise<Workspace | null>;
}

export interface MemberStore {
  /** Fails with CONFLICT (field `email`) when the e-mail is taken in the workspace. */
  insert(member: Omit<MemberRecord, 'createdAt'>): Promise<Result<MemberRecord>>;
}

export interface ApiTokenStore {
  insert(token: Omit<ApiTokenRecord, 'createdAt' | 'revokedAt' | 'lastUsedAt'>): Promise<ApiTokenRecord>;
  findBySecretHash(secretHash: string): Promise<ApiTokenRecord | null>;
  /** Marks the token revoked; null when no such token exists. */
  revoke(id: string, at: Date): Promise<ApiTokenRecord | null>;
}

/** Every store, bound to one database handle (a pool or an open transaction). */
export interface Stores {
  tours: TourStore;
  availability: AvailabilityStore;
  customers: CustomerStore;
  workspaces: WorkspaceStore;
  members: MemberStore;
  apiTokens: ApiTokenStore;
}
